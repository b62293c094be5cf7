import { readFile } from 'node:fs/promises';
import { ClearanceError } from '../errors.js';
import { type Folded, fold } from '../projections/fold.js';
import { type HeadRead, readHead } from './head.js';
import { type ParsedLog, parseLog } from './log-format.js';
import { runPaths } from './paths.js';

export type RunRead = ParsedLog &
  Readonly<{
    runId: string;
    path: string;
    head: HeadRead;
    folded: Folded;
  }>;

/**
 * Read and fold a run's log. Takes no lock and never writes, creates or migrates anything: a torn
 * tail is reported and ignored, an integrity issue is reported with line, offset and cause.
 */
export const readRun = async (dir: string, runId: string): Promise<RunRead> => {
  const paths = runPaths(dir, runId);
  // the head first: an append writes the log before the head, so read in the other order the head
  // can lag what we read but never lead it
  const head = await readHead(paths.head);
  let bytes: Buffer;
  try {
    bytes = await readFile(paths.log);
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
  const parsed = parseLog(bytes, head.head);
  return { ...parsed, runId, path: paths.log, head, folded: fold(parsed.events) };
};

export const integrityError = (read: Pick<RunRead, 'issue' | 'path' | 'runId'>): ClearanceError | null =>
  read.issue === null
    ? null
    : new ClearanceError(
        'integrity',
        `run ${read.runId} log is damaged at line ${read.issue.line} (byte ${read.issue.offset}): ${read.issue.cause}. Appends are refused until an operator repairs ${read.path}`,
        { ...read.issue, path: read.path },
      );

/** Read a run whose log must be intact: an integrity issue becomes an `integrity` error. */
export const readIntactRun = async (dir: string, runId: string): Promise<RunRead> => {
  const read = await readRun(dir, runId);
  const error = integrityError(read);
  if (error !== null) throw error;
  return read;
};
