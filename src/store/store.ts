import type { RevisionCapturedData, RunOpenedData, StoredEvent } from '../events/event.js';
import { type AppendOptions, type AppendResult, append } from './append.js';
import { listRuns } from './list.js';
import { archiveOutput, checkObjects, type ObjectProblem, readOutput } from './objects.js';
import { createLog, openRun } from './open-run.js';
import type { EventsFor } from './prepare-append.js';
import {
  integrityError,
  type RunRead,
  type RunStateRead,
  readRun,
  readRunBytes,
  readRunState,
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
  openRun: (
    opened: RunOpenedData,
    options: Readonly<{ by: string; capture?: RevisionCapturedData; now?: () => Date }>,
  ) => Promise<ReadonlyArray<StoredEvent>>;
  append: (runId: string, eventsFor: EventsFor, options: AppendOptions) => Promise<AppendResult>;
  readRun: (runId: string) => Promise<RunRead>;
  readRunState: (runId: string) => Promise<RunStateRead>;
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
  openRun: (opened, options) => openRun(dir, opened, options),
  append: (runId, eventsFor, options) => append(dir, runId, eventsFor, options),
  readRun: (runId) => readRun(dir, runId),
  readRunState: (runId) => readRunState(dir, runId),
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
