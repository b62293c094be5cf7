import type { RevisionCapturedData, RunOpenedData, StoredEvent } from '../events/event.js';
import { type AppendOptions, type AppendResult, append } from './append.js';
import { listRuns } from './list.js';
import { archiveOutput, checkObjects, type ObjectProblem, readOutput } from './objects.js';
import { createLog, openRun } from './open-run.js';
import { runPaths } from './paths.js';
import type { EventsFor } from './plan-append.js';
import {
  foldRunFromCheckpoint,
  foldRunFromStart,
  intact,
  integrityError,
  type RunRead,
  type RunStateRead,
  type RunStatusRead,
  type RunSummaryRead,
  readRun,
  readRunBytes,
  readRunSummary,
} from './read.js';
import { checkImport } from './transfer.js';

/**
 * What the driver and the CLI use of a store, whichever engine holds it: the JSONL directory (the
 * embedded default) or PostgreSQL (runs shared by many machines). Both hold the same lines byte
 * for byte and run the same checks; only where the bytes live and how appends are serialised differ.
 */
export type Store = Readonly<{
  kind: 'file' | 'postgres';
  /** where it is, for messages: a directory, or a database without its credentials */
  where: string;
  /** where one run's log is, for people: a file path, or the run in a database */
  logOf: (runId: string) => string;
  openRun: (
    opened: RunOpenedData,
    options: Readonly<{ by: string; capture?: RevisionCapturedData; now?: () => Date }>,
  ) => Promise<ReadonlyArray<StoredEvent>>;
  append: (runId: string, eventsFor: EventsFor, options: AppendOptions) => Promise<AppendResult>;
  /** every event and the audit trail (replay) */
  readRun: (runId: string) => Promise<RunRead>;
  /** every event checked and folded as it streams past, keeping the outputs it names (verify) */
  foldRunFromStart: (runId: string) => Promise<RunStateRead>;
  /** where a run stands, by the quickest honest way the store has (status and the views) */
  foldRunFromCheckpoint: (runId: string) => Promise<RunStatusRead>;
  /** one line of a listing of every run */
  readRunSummary: (runId: string) => Promise<RunSummaryRead>;
  listRuns: () => Promise<ReadonlyArray<string>>;
  archiveOutput: (runId: string, bytes: Uint8Array) => Promise<string>;
  checkObjects: (runId: string, shas: ReadonlyArray<string>) => Promise<ReadonlyArray<ObjectProblem>>;
  readOutput: (runId: string, sha: string) => Promise<Buffer>;
  /** the run's log exactly as stored (intact lines only; a damaged log is refused) */
  exportLog: (runId: string) => Promise<Buffer>;
  /** a new run from exported lines, checked whole first (`checkImport`); returns the event count */
  importLog: (runId: string, bytes: Buffer) => Promise<number>;
  /** release what the store holds open (a database connection); the file store holds nothing */
  close: () => Promise<void>;
}>;

export const fileStore = (dir: string): Store => ({
  kind: 'file',
  where: dir,
  logOf: (runId) => runPaths(dir, runId).log,
  openRun: (opened, options) => openRun(dir, opened, options),
  append: (runId, eventsFor, options) => append(dir, runId, eventsFor, options),
  readRun: (runId) => readRun(dir, runId),
  foldRunFromStart: (runId) => foldRunFromStart(dir, runId),
  foldRunFromCheckpoint: async (runId) => foldRunFromCheckpoint(dir, runId),
  readRunSummary: async (runId) => readRunSummary(dir, runId),
  listRuns: () => listRuns(dir),
  archiveOutput: (runId, bytes) => archiveOutput(dir, runId, bytes),
  checkObjects: (runId, shas) => checkObjects(dir, runId, shas),
  readOutput: (runId, sha) => readOutput(dir, runId, sha),
  exportLog: async (runId) => {
    const read = await readRun(dir, runId);
    const damaged = integrityError(read);
    if (damaged !== null) throw damaged;
    return (await readRunBytes(dir, runId)).subarray(0, read.size);
  },
  importLog: async (runId, bytes) => {
    const parsed = checkImport(runId, bytes);
    await createLog(dir, runId, bytes, { seq: parsed.lastSeq, hash: parsed.lastHash });
    return parsed.events.length;
  },
  close: async () => undefined,
});

/** A store, or the directory of a file store: what the driver's operations accept. */
export type StoreRef = string | Store;

export const storeOf = (ref: StoreRef): Store => (typeof ref === 'string' ? fileStore(ref) : ref);

/** The directory a store keeps its files in, to leave out of a reviewed work tree; none for a database. */
export const storeDirOf = (store: Store): string | undefined =>
  store.kind === 'file' ? store.where : undefined;

/**
 * A run's state, by the store's quickest honest read (from its checkpoint when that still matches
 * the log), when its log is intact. What every step reads before it takes the lock: a hint, which
 * the append checks again under the lock (`expectedSeq` where the step built on it). Only `verify`
 * and `replay` read every byte.
 */
export const foldIntactFromCheckpoint = async (ref: StoreRef, runId: string): Promise<RunStatusRead> =>
  intact(await storeOf(ref).foldRunFromCheckpoint(runId));

/** A run's every event and trail, when its log is intact. */
export const readIntactEvents = async (ref: StoreRef, runId: string): Promise<RunRead> =>
  intact(await storeOf(ref).readRun(runId));
