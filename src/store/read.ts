import { readFile } from 'node:fs/promises';
import { ClearanceError } from '../errors.js';
import { type Folded, fold, step } from '../projections/fold.js';
import { initialState, type RunState } from '../projections/state.js';
import { type HeadRead, readHead } from './head.js';
import { type LogSummary, type ParsedLog, parseLog, scanLog } from './log-format.js';
import { runPaths } from './paths.js';

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
    /** the archived outputs the log names (stage.finished), for verify to check */
    outputs: ReadonlyArray<string>;
  }>;

/**
 * The bytes of a run's log and its head anchor. Takes no lock and never writes, creates or
 * migrates anything.
 */
const readBytes = async (dir: string, runId: string): Promise<Located & { bytes: Buffer }> => {
  const paths = runPaths(dir, runId);
  // the head first: an append writes the log before the head, so read in the other order the head
  // can lag what we read but never lead it
  const head = readHead(paths.head);
  try {
    return { runId, path: paths.log, head, bytes: await readFile(paths.log) };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new ClearanceError(
        'run-missing',
        `no run ${runId} in ${paths.runs}: open it first (clearance open ${runId})`,
        {
          runId,
          path: paths.log,
        },
      );
    }
    throw e;
  }
};

/** A run's log bytes as they are on disk (export trims them to the intact lines). */
export const readRunBytes = async (dir: string, runId: string): Promise<Buffer> =>
  (await readBytes(dir, runId)).bytes;

/** Read a run and fold it with its audit trail. A torn tail is reported and ignored; an integrity issue is reported. */
export const readRun = async (dir: string, runId: string): Promise<RunRead> => {
  const { bytes, ...located } = await readBytes(dir, runId);
  const parsed = parseLog(bytes, located.head.head);
  return { ...parsed, ...located, folded: fold(parsed.events) };
};

/** Read a run for its state: the same checks as `readRun`, in constant memory beyond the state. */
export const readRunState = async (dir: string, runId: string): Promise<RunStateRead> => {
  const { bytes, ...located } = await readBytes(dir, runId);
  let state = initialState;
  let events = 0;
  let refused = 0;
  const outputs: string[] = [];
  const summary = scanLog(bytes, located.head.head, (event) => {
    if (event.type === 'stage.finished') outputs.push(event.data.outputSha);
    const after = step(state, event);
    state = after.state;
    events += 1;
    if (after.rejection !== null) refused += 1;
  });
  return { ...summary, ...located, state, events, refused, outputs };
};

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

const intact = <T extends Pick<LogSummary, 'issue'> & Pick<Located, 'path' | 'runId'>>(read: T): T => {
  const error = integrityError(read);
  if (error !== null) throw error;
  return read;
};

/** Read a run whose log must be intact: an integrity issue becomes an `integrity` error. */
export const readIntactRun = async (dir: string, runId: string): Promise<RunRead> =>
  intact(await readRun(dir, runId));

export const readIntactRunState = async (dir: string, runId: string): Promise<RunStateRead> =>
  intact(await readRunState(dir, runId));
