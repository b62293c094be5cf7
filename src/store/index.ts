export { type AppendOptions, type AppendResult, append, appendBatch, type EventsFor } from './append.js';
export type { FoldCheckpoint } from './checkpoint.js';
export { type HeadRead, readHead } from './head.js';
export { listRuns } from './list.js';
export { DEFAULT_LOCK_STALE_MS, DEFAULT_LOCK_TIMEOUT_MS, type LockOptions } from './lock.js';
export {
  encodeEvents,
  type Head,
  type IntegrityIssue,
  type LogSummary,
  type ParsedLog,
  parseHead,
  parseLog,
  scanLog,
  type TornTail,
} from './log-format.js';
export { archiveOutput, checkObjects, type ObjectProblem, readOutput } from './objects.js';
export { type NewRun, type OpenOptions, openRun, syncDir } from './open-run.js';
export { type RunPaths, runPaths, runsDir } from './paths.js';
export {
  foldRunFromStart,
  intact,
  integrityError,
  type LogBytes,
  type RunRead,
  type RunStateRead,
  type RunStatusRead,
  type RunSummaryRead,
  readRun,
} from './read.js';
export { assertRunId, isRunId } from './safe-run-id.js';
export { fileStore, type Store } from './store.js';
export { checkImport, exportLog, importLog } from './transfer.js';
