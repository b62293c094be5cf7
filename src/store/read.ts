import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { outputShaOf } from '@clearance/fold/internal/events/outputs.js';
import { type Folded, fold } from '@clearance/fold/internal/projections/fold.js';
import { maxRoundsOf, type RunState } from '@clearance/fold/internal/projections/state.js';
import { ClearanceError } from '../errors.js';
import {
  type CaughtUp,
  catchUp,
  lastLineHolds,
  matchesFile,
  noteLogRead,
  resumeAt,
  resumeFrom,
} from './catch-up.js';
import { type RunSummary, readCheckpoint, readCheckpointHeader, recalledCheckpoint } from './checkpoint.js';
import { type HeadRead, readHead } from './head.js';
import type { TornTail } from './log-format.js';
import { LOG_START, type LogSummary, type ParsedLog, parseLog } from './log-format.js';
import { missingRun } from './missing-run.js';
import { nodeDecider } from './node-decider.js';
import { runPaths } from './paths.js';
import { scanAndStep } from './scan.js';
import type { Store } from './store.js';

type Located = Readonly<{ runId: string; path: string; head: HeadRead }>;

/** A run read whole: every event and the audit trail (for replay). */
export type RunRead = ParsedLog & Located & Readonly<{ folded: Folded }>;

/** A run read for its state only: the events are checked and folded as they stream past. */
export type RunStateRead = LogSummary &
  Located &
  Readonly<{
    state: RunState;
    events: number;
    refused: number;
    /** the archived outputs the log names (stage.finished, reproduction.recorded), for verify to check */
    outputs: ReadonlyArray<string>;
  }>;

/** A run's log as one snapshot: its lines as stored and its head anchor (`Store.readLog`). */
export type LogBytes = Located & Readonly<{ bytes: Buffer }>;

/**
 * The file store's `readLog`: the bytes of a run's log and its head anchor. Takes no lock and never
 * writes, creates or migrates anything.
 */
export const readLogFile = async (dir: string, runId: string): Promise<LogBytes> => {
  const paths = runPaths(dir, runId);
  // the head first: an append writes the log before the head, so read in the other order the head
  // can lag what we read but never lead it
  const head = readHead(paths.head);
  try {
    const bytes = await readFile(paths.log);
    noteLogRead(0, bytes.length);
    return { runId, path: paths.log, head, bytes };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw missingRun(runId, paths.runs, { path: paths.log });
    throw e;
  }
};

/** Read a run and fold it with its audit trail. A torn tail is reported and ignored; an integrity issue is reported. */
export const readRun = async (store: Pick<Store, 'readLog'>, runId: string): Promise<RunRead> => {
  const { bytes, ...located } = await store.readLog(runId);
  const parsed = parseLog(bytes, located.head.head);
  return { ...parsed, ...located, folded: fold(nodeDecider.evolve, parsed.events) };
};

/** Read a run for its state: the same checks as `readRun`, in constant memory beyond the state. */
export const foldRunFromStart = async (
  store: Pick<Store, 'readLog'>,
  runId: string,
): Promise<RunStateRead> => {
  const { bytes, ...located } = await store.readLog(runId);
  const outputs: string[] = [];
  // every rule derived again, the reportSha of each carried report included: this is `verify`'s read
  const scanned = scanAndStep(nodeDecider.evolve, bytes, located.head.head, null, LOG_START, (event) => {
    const output = outputShaOf(event);
    if (output !== null) outputs.push(output);
  });
  return { ...scanned, ...located, outputs };
};

/** A run read for where it stands (`status`): its state, and what the scan of the unread part found. */
export type RunStatusRead = CaughtUp & Readonly<{ runId: string; path: string }>;

/**
 * The file store's `foldRun`: a run's state from its fold checkpoint when that still matches the
 * log (then only the lines after it are read, checked and folded), otherwise from the start.
 * Synchronous: a command over every run reads them one after another, keeping nothing of one when
 * it reads the next. Reads only: never writes the checkpoint, which is the appenders' to keep.
 */
export const foldRunFile = (dir: string, runId: string): RunStatusRead => {
  const paths = runPaths(dir, runId);
  const recalled = recalledCheckpoint(paths.log);
  const checkpoint = recalled !== null ? resumeAt(recalled) : resumeFrom(readCheckpoint(paths.cache));
  // without a checkpoint the head is read first: an append writes the log before the head, so it
  // can lag what we read but never lead it (with one, a mismatch folds the log without the head)
  const head = checkpoint === null ? readHead(paths.head).head : null;
  let fd: number;
  try {
    fd = openSync(paths.log, constants.O_RDONLY);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw missingRun(runId, paths.runs, { path: paths.log });
    throw e;
  }
  try {
    return { ...catchUp(fd, fstatSync(fd), checkpoint, () => head), runId, path: paths.log };
  } finally {
    closeSync(fd);
  }
};

/** One line of a listing of every run. */
export type RunSummaryRead = RunSummary &
  Readonly<{
    runId: string;
    lastSeq: number;
    issue: LogSummary['issue'];
    tornTail: TornTail | null;
    fromCheckpoint: boolean;
  }>;

/**
 * The file store's `readRunSummary`: where a run stands, for a listing of every run, from its
 * checkpoint's header alone when the checkpoint matches the log (the same file, unwritten since,
 * its last line as recorded), so neither the log nor the state is parsed; otherwise the log is
 * folded from the start. Reads only.
 */
export const readRunSummaryFile = (dir: string, runId: string): RunSummaryRead => {
  const paths = runPaths(dir, runId);
  const header = readCheckpointHeader(paths.cache);
  if (header !== null) {
    let fd: number | null = null;
    try {
      fd = openSync(paths.log, constants.O_RDONLY);
      const file = fstatSync(fd);
      if (matchesFile(header, file) && lastLineHolds(fd, header.size, header.lineStart, header.hash)) {
        return {
          ...header.summary,
          runId,
          lastSeq: header.seq,
          issue: null,
          tornTail: null,
          fromCheckpoint: true,
        };
      }
    } catch {
      // read below, where a missing log is reported as such
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return summaryOfFolded(foldRunFile(dir, runId), runId);
};

/** A listing line from a run folded from its log (no checkpoint's header to take it from). */
export const summaryOfFolded = (
  read: Pick<LogSummary, 'lastSeq' | 'issue' | 'tornTail'> & Readonly<{ state: RunState }>,
  runId: string,
): RunSummaryRead => ({
  status: read.state.status,
  round: read.state.round,
  maxRounds: read.state.run === null ? null : maxRoundsOf(read.state),
  runId,
  lastSeq: read.lastSeq,
  issue: read.issue,
  tornTail: read.tornTail,
  fromCheckpoint: false,
});

export const integrityError = (
  read: Pick<LogSummary, 'issue'> & Pick<Located, 'path' | 'runId'>,
): ClearanceError | null =>
  read.issue === null
    ? null
    : new ClearanceError(
        'integrity',
        `run ${read.runId} log is damaged at line ${read.issue.line} (byte ${read.issue.offset}): ${read.issue.cause}. Appends are refused until an operator repairs ${read.path}`,
        { ...read.issue, path: read.path },
      );

/** The read itself when its log is intact; otherwise the `integrity` error naming where. */
export const intact = <T extends Pick<LogSummary, 'issue'> & Pick<Located, 'path' | 'runId'>>(read: T): T => {
  const error = integrityError(read);
  if (error !== null) throw error;
  return read;
};
