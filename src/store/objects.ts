import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { ClearanceError, isClearanceError } from '../errors.js';
import { refuseLink, unsafePath } from './no-follow.js';
import { syncDir } from './open-run.js';
import { runPaths } from './paths.js';
import type { Store } from './store.js';

/**
 * A run's archive of stage outputs, content-addressed: `<dir>/runs/<runId>/objects/<sha256>`.
 * An output is archived (written, fsynced, renamed into place) before the `stage.finished` event
 * that names it is appended, so a recorded sha always has its bytes.
 */
export const archiveOutput = async (dir: string, runId: string, bytes: Uint8Array): Promise<string> => {
  const { objects } = runPaths(dir, runId);
  const sha = sha256Hex(bytes);
  const target = path.join(objects, sha);
  // no write may go through a link planted inside the store: not the run's directory, not its
  // archive, not an output (lstat: a link is refused, never taken for the output it points to)
  refuseLink(path.dirname(path.dirname(objects)));
  refuseLink(path.dirname(objects));
  refuseLink(objects);
  const existing = await lstat(target).catch(() => null);
  if (existing?.isSymbolicLink()) throw unsafePath(target);
  if (existing !== null) return sha; // same bytes, same name: already there
  await mkdir(objects, { recursive: true });
  const temp = path.join(objects, `.${sha}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx'); // O_CREAT|O_EXCL: never an existing file or link
  try {
    await handle.writeFile(bytes);
    await handle.sync();
    await handle.close();
    await rename(temp, target);
  } catch (error) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDir(objects);
  return sha;
};

export type ObjectProblem = Readonly<{ sha: string; problem: 'missing' | 'corrupt' }>;

/** The file store's `readOutput`: the bytes of an archived output. */
export const readOutput = async (dir: string, runId: string, sha: string): Promise<Buffer> => {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new ClearanceError('usage', `not an output id: ${sha}`);
  try {
    return await readFile(path.join(runPaths(dir, runId).objects, sha));
  } catch {
    throw new ClearanceError('integrity', `the output ${sha} of run ${runId} is not in its archive`, { sha });
  }
};

/**
 * Which of these archived outputs are missing, or no longer hash to their name, in either store.
 * Reads only; a failure of the store itself (a lost connection) is thrown, never taken for a loss.
 */
export const checkObjects = async (
  store: Pick<Store, 'readOutput'>,
  runId: string,
  shas: ReadonlyArray<string>,
): Promise<ReadonlyArray<ObjectProblem>> => {
  const problems: ObjectProblem[] = [];
  for (const sha of new Set(shas)) {
    const bytes = await store.readOutput(runId, sha).catch((e: unknown) => {
      // not in the archive, or a name no archive can hold (a refused event may name anything)
      if (isClearanceError(e) && (e.code === 'integrity' || e.code === 'usage')) return null;
      throw e;
    });
    if (bytes === null) problems.push({ sha, problem: 'missing' });
    else if (sha256Hex(bytes) !== sha) problems.push({ sha, problem: 'corrupt' });
  }
  return problems;
};
