import { type AppendOptions, type AppendResult, append } from './append.js';
import { listRuns } from './list.js';
import { archiveOutput, readOutput } from './objects.js';
import { createLog, type NewRun } from './open-run.js';
import type { EventsFor } from './plan-append.js';
import {
  foldRunFile,
  type LogBytes,
  type RunStatusRead,
  type RunSummaryRead,
  readLogFile,
  readRunSummaryFile,
} from './read.js';

/**
 * What both stores offer, whichever engine holds the runs: the JSONL directory (the embedded
 * default) or PostgreSQL (runs shared by many machines). Both hold the same lines byte for byte and
 * run the same checks; only where the bytes live and how appends are serialised differ. Each keeps
 * its checkpoint to itself (`foldRun` and `append` use it). What is built over these members
 * (opening, every-event reads, export and import, checking the archive) is written once, beside
 * them: `openRun`, `readRun`, `foldRunFromStart`, `exportLog`, `importLog`, `checkObjects`.
 */
export type Store = Readonly<{
  kind: 'file' | 'postgres';
  /** where it is, for messages: a directory, or a database without its credentials */
  where: string;
  /** a new run holding `run.text`, whole lines its caller checked (`openRun`, `importLog`); `run-exists` if taken */
  createRun: (run: NewRun) => Promise<void>;
  /** append what `eventsFor` decides against the run's state, at `options.expectedSeq` when given */
  append: (runId: string, eventsFor: EventsFor, options: AppendOptions) => Promise<AppendResult>;
  /** the run's log as stored, with its head anchor, in one snapshot (every-event reads start here) */
  readLog: (runId: string) => Promise<LogBytes>;
  /** where a run stands, by the quickest honest way the store has (status, the views, every step) */
  foldRun: (runId: string) => Promise<RunStatusRead>;
  /** one line of a listing of every run */
  readRunSummary: (runId: string) => Promise<RunSummaryRead>;
  listRuns: () => Promise<ReadonlyArray<string>>;
  /** keep an output under the run by its SHA-256, durably, before an event names it */
  archiveOutput: (runId: string, bytes: Uint8Array) => Promise<string>;
  /** an archived output's bytes (`integrity` when it is not there) */
  readOutput: (runId: string, sha: string) => Promise<Buffer>;
  /** release what the store holds open (a database connection); the file store holds nothing */
  close: () => Promise<void>;
}>;

export const fileStore = (dir: string): Store => ({
  kind: 'file',
  where: dir,
  createRun: (run) => createLog(dir, run.runId, run.text, run.head),
  append: (runId, eventsFor, options) => append(dir, runId, eventsFor, options),
  readLog: (runId) => readLogFile(dir, runId),
  foldRun: async (runId) => foldRunFile(dir, runId),
  readRunSummary: async (runId) => readRunSummaryFile(dir, runId),
  listRuns: () => listRuns(dir),
  archiveOutput: (runId, bytes) => archiveOutput(dir, runId, bytes),
  readOutput: (runId, sha) => readOutput(dir, runId, sha),
  close: async () => undefined,
});

/** The directory a store keeps its files in, to leave out of a reviewed work tree; none for a database. */
export const storeDirOf = (store: Store): string | undefined =>
  store.kind === 'file' ? store.where : undefined;
