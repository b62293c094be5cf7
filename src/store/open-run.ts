import { randomBytes } from 'node:crypto';
import { closeSync } from 'node:fs';
import { link, mkdir, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import type {
  RevisionCapturedData,
  RunOpenedData,
  StoredEvent,
} from '@clearance/fold/internal/events/event.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import { ClearanceError } from '../errors.js';
import { openHead, writeHead } from './head.js';
import type { Head } from './log-format.js';
import { refuseLink } from './no-follow.js';
import { runPaths } from './paths.js';
import { planOpen } from './plan-open.js';
import { assertRunId } from './safe-run-id.js';
import type { Store } from './store.js';

export type OpenOptions = Readonly<{ by: string; capture?: RevisionCapturedData; now?: () => Date }>;

/** fsync a directory so a new name in it survives a crash; some platforms refuse, which is fine. */
export const syncDir = async (dir: string): Promise<void> => {
  const handle = await open(dir, 'r').catch(() => null);
  if (handle === null) return;
  try {
    await handle.sync();
  } catch {
    // EISDIR/EINVAL/EPERM on platforms that cannot fsync a directory
  } finally {
    await handle.close();
  }
};

/**
 * A new run's first lines, whole and checked by whoever made them (`planOpen` for an opened run,
 * `checkImport` for an imported one), its head, and the state they fold to when that is known
 * (a store may keep it as its first checkpoint).
 */
export type NewRun = Readonly<{ runId: string; text: string | Buffer; head: Head; state?: RunState }>;

/**
 * Create a run: its log holds `run.opened` (and round 1's capture, when given) from the first
 * moment anyone can see it, in either store (`createRun` is exclusive: `run-exists` if the id is
 * taken, and no reader ever sees a log without its `run.opened`).
 */
export const openRun = async (
  store: Pick<Store, 'createRun'>,
  opened: RunOpenedData,
  options: OpenOptions,
): Promise<ReadonlyArray<StoredEvent>> => {
  // before anything else: an unsafe id is refused before any path is built from it
  const runId = assertRunId(opened.runId);
  const { encoded, state } = planOpen(opened, options);
  await store.createRun({
    runId,
    text: encoded.text,
    head: { seq: encoded.lastSeq, hash: encoded.lastHash },
    state,
  });
  return encoded.stored;
};

/**
 * The file store's `createRun`: a run's log holding `text` (whole lines, an opened run's or an
 * imported one's) from the first moment anyone can see it: written to a temporary file created with `wx` and fsynced, then
 * linked to the log's name, which fails if the run exists. Exclusive, and no reader ever sees a
 * partial log.
 */
export const createLog = async (
  dir: string,
  runId: string,
  text: string | Buffer,
  head: Head,
): Promise<void> => {
  const paths = runPaths(dir, runId);
  refuseLink(paths.runs);
  await mkdir(paths.runs, { recursive: true });
  const temp = path.join(paths.runs, `.${runId}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' is O_CREAT|O_EXCL: a new file, never one planted (or linked) in its place
  const handle = await open(temp, 'wx');
  let headFd: number | null = null;
  try {
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // opened before the log appears, so a link planted as the head refuses the open whole
    headFd = openHead(paths.head);
    try {
      await link(temp, paths.log);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
        throw new ClearanceError(
          'run-exists',
          `run ${runId} already exists in ${paths.runs}: pick another run id`,
          {
            runId,
            path: paths.log,
          },
        );
      }
      throw e;
    }
    await syncDir(paths.runs);
    writeHead(headFd, head);
  } finally {
    if (headFd !== null) closeSync(headFd);
    // on every path, success included: the log is the temporary file's second name
    await unlink(temp).catch(() => undefined);
  }
};
