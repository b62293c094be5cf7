import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, writeSync } from 'node:fs';
import type { StoredEvent } from '@clearance/fold/internal/events/event.js';
import type { Folded } from '@clearance/fold/internal/projections/fold.js';
import { ClearanceError } from '../errors.js';
import {
  catchUp,
  checkpointOf,
  lastLineHolds,
  matchesFile,
  type Resume,
  resumeAt,
  resumeFrom,
} from './catch-up.js';
import {
  type FoldCheckpoint,
  forgetCheckpoint,
  type KnownState,
  readCheckpoint,
  recalledCheckpoint,
  recalledOnDisk,
  rememberCheckpoint,
  writeCheckpoint,
} from './checkpoint.js';
import { openHead, readHead, writeHead } from './head.js';
import { acquireRunLock, type LockOptions, type RunLock } from './lock.js';
import { reached } from './lock-steps.js';
import type { Head, TornTail } from './log-format.js';
import { missingRun } from './missing-run.js';
import { openNoFollow, refuseLink } from './no-follow.js';
import { type RunPaths, runPaths } from './paths.js';
import { checkExpectedSeq, type EventsFor, planAppend } from './plan-append.js';
import { integrityError } from './read.js';

export type { EventsFor } from './plan-append.js';

export type AppendOptions = LockOptions &
  Readonly<{
    /** who appends: the envelope's `by` (audit metadata; the fold never reads it) */
    by: string;
    /** refuse unless the log's last seq is exactly this (optimistic concurrency for drivers) */
    expectedSeq?: number;
    now?: () => Date;
  }>;

export type AppendResult = Readonly<{
  appended: ReadonlyArray<StoredEvent>;
  /** the run's state after the append, and the audit trail of the events it appended (only those) */
  folded: Folded;
  /** a torn tail (a never-acknowledged partial line) this append truncated, if there was one */
  repairedTail: TornTail | null;
  /** the offer was a retry of what the log already holds: nothing was appended (see rules/retry.ts) */
  alreadyRecorded: boolean;
}>;

/** Write all of `bytes` at the end of the file (O_APPEND): one write in practice; the loop covers a short one. */
const writeAll = (fd: number, bytes: Buffer): void => {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
};

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

/** A step's lines, written and not yet synced. */
type Unsynced = Readonly<{ fd: number; headFd: number; end: number; head: Head; result: AppendResult }>;

/** Rewrite the anchor, unless the log has grown since (then a later append's anchor is the one to keep). */
const anchor = (u: Unsynced): void => {
  if (fstatSync(u.fd).size === u.end) writeHead(u.headFd, u.head);
};

const closeAll = (fds: ReadonlyArray<number | null>): void => {
  for (const fd of fds) if (fd !== null) closeSync(fd);
};

/**
 * The append's critical section, synchronous on purpose: every thread-pool hop lengthens the time
 * other appenders wait. Folds the log from the newest checkpoint that still matches it, then for
 * each step builds and checks its events, verifies that the lock is still this holding's and the
 * log still exactly what was folded, and writes at the end. Each step but the last is fsynced and
 * acknowledged before the next is built; the last is returned written and unsynced, with its files
 * open, for `appendBatch` to sync and anchor once the lock is released (the anchor is rewritten
 * once an append, for its last durable line).
 */
const appendLocked = (
  paths: RunPaths,
  runId: string,
  steps: ReadonlyArray<EventsFor>,
  options: AppendOptions,
  lock: RunLock,
  acknowledge: (result: AppendResult) => void,
): Unsynced | null => {
  let fd: number;
  try {
    fd = openNoFollow(paths.log, constants.O_RDWR | constants.O_APPEND);
  } catch (e) {
    throw isMissing(e) ? missingRun(runId, paths.runs) : e;
  }
  let headFd: number | null = null;
  let checkpoint: FoldCheckpoint | null = null;
  // true while a step's bytes may be half on disk: then no checkpoint is kept, the next append folds afresh
  let writing = false;
  // the checkpoint on disk is rewritten only when this append moved past the one it started from
  let startedAt = -1;
  // the state line the checkpoint file holds, when this append folded from it: its header alone may be rewritten
  let onDisk: KnownState | null = null;
  let unsynced: Unsynced | null = null;
  // the last step synced under the lock: the anchor is rewritten once, for the last durable line
  let synced: Unsynced | null = null;
  const sync = (u: Unsynced): void => {
    fsyncSync(u.fd);
    synced = u;
    acknowledge(u.result);
  };
  try {
    const file = fstatSync(fd);
    const fileSize = file.size;
    const recalled = recalledCheckpoint(paths.log);
    let known: Resume | null;
    if (recalled !== null && matchesFile(recalled, file)) {
      known = resumeAt(recalled);
      onDisk = recalledOnDisk(paths.log);
    } else {
      const stored = readCheckpoint(paths.cache);
      known = resumeFrom(stored);
      onDisk = stored === null ? null : { ...stored.at, ...stored.stored };
    }
    const caught = catchUp(fd, file, known, () => readHead(paths.head).head);
    if (caught.fromCheckpoint && known !== null) startedAt = known.end.size;
    else onDisk = null;
    const damaged = integrityError({ issue: caught.issue, path: paths.log, runId });
    if (damaged !== null) throw damaged;
    checkExpectedSeq(runId, caught.lastSeq, options.expectedSeq);
    checkpoint = checkpointOf(caught, file);
    if (checkpoint === null) return null; // unreachable: a damaged log was refused above
    // opened before the log is written, so a link planted in its place refuses the append whole
    headFd = openHead(paths.head);
    let tornTail = caught.tornTail;
    let expectedSize = fileSize;
    for (const eventsFor of steps) {
      const state = checkpoint.state;
      let plan: ReturnType<typeof planAppend>;
      try {
        plan = planAppend(state, checkpoint, eventsFor, options);
      } finally {
        // the step before is acknowledged (synced) before this one answers, refused or not
        const before = unsynced;
        unsynced = null;
        if (before !== null) sync(before);
      }
      if (plan.kind !== 'write') {
        acknowledge({
          appended: [],
          folded: { state, trail: [] },
          repairedTail: null,
          alreadyRecorded: plan.kind === 'already-recorded',
        });
        continue;
      }
      reached('folded');
      const { encoded, folded } = plan;
      const bytes = Buffer.from(encoded.text, 'utf8');
      // Never write without the lock, nor over bytes we did not read: if the lock is no longer
      // this holding's, or the log is not exactly what was folded (another writer took the lock
      // over while this one was paused), refuse with nothing written.
      if (
        !lock.held() ||
        fstatSync(fd).size !== expectedSize ||
        !lastLineHolds(fd, checkpoint.size, checkpoint.lineStart, checkpoint.hash)
      ) {
        throw new ClearanceError(
          'lock-compromised',
          `the lock of run ${runId} was taken over while this process held it (it was paused past the stale period, or another writer judged it dead): nothing was written; retry`,
          { path: paths.log, lock: paths.lock, expectedSize },
        );
      }
      writing = true;
      // a torn tail was never acknowledged: drop it so the new lines chain after the last good one
      if (tornTail !== null) ftruncateSync(fd, checkpoint.size);
      writeAll(fd, bytes);
      reached('written');
      const size: number = checkpoint.size + bytes.length;
      checkpoint = {
        // the file's change time after this append's last write is read once, at the end
        file: checkpoint.file,
        size,
        seq: encoded.lastSeq,
        hash: encoded.lastHash,
        lineStart: size - (bytes.length - (bytes.lastIndexOf(0x0a, bytes.length - 2) + 1)),
        events: checkpoint.events + encoded.stored.length,
        refused: checkpoint.refused,
        state: folded.state,
      };
      expectedSize = size;
      writing = false;
      unsynced = {
        fd,
        headFd,
        end: size,
        head: { seq: encoded.lastSeq, hash: encoded.lastHash },
        result: { appended: encoded.stored, folded, repairedTail: tornTail, alreadyRecorded: false },
      };
      tornTail = null;
    }
    return unsynced;
  } finally {
    // a step synced here and none left to sync after the release (the last wrote nothing, or was refused)
    if (unsynced === null && synced !== null) anchor(synced);
    if (writing || checkpoint === null) forgetCheckpoint(paths.log);
    else {
      if (checkpoint.size !== startedAt) {
        const after = fstatSync(fd);
        checkpoint = { ...checkpoint, file: { ino: after.ino, ctimeMs: after.ctimeMs } };
      }
      if (checkpoint.size !== startedAt) onDisk = writeCheckpointQuietly(paths.cache, checkpoint, onDisk);
      rememberCheckpoint(paths.log, checkpoint, onDisk);
      reached('checkpointed');
    }
    // the last step's files stay open until it is synced
    if (unsynced === null) closeAll([headFd, fd]);
  }
};

/**
 * The checkpoint on disk only saves work: failing to write it (a full disk, a planted link) fails
 * nothing. Returns the state line it now holds (null when unknown).
 */
const writeCheckpointQuietly = (
  file: string,
  c: FoldCheckpoint,
  onDisk: KnownState | null,
): KnownState | null => {
  try {
    return writeCheckpoint(file, c, onDisk);
  } catch {
    // ignored: the next append folds from the log
    return null;
  }
};

/**
 * Append several steps under one hold of the run's lock: each step's events are built from the
 * state after the steps before it, checked with `evolve`, written in one write and fsynced, and
 * only then acknowledged (`onAppended`, and the result). A refused step throws, with nothing of it
 * written; the steps before it stay appended. `expectedSeq` applies to the first step.
 *
 * The last step is synced after the lock is released (group commit): the lock only orders the
 * writes, so appenders in other processes write their lines while this one's fsync runs, and
 * the kernel commits theirs with it. Its lines are acknowledged only after that fsync, as every
 * step's are; until then they are written but not durable, and a later append folds them (if
 * this fsync fails, the caller is told and a retry is answered "already recorded").
 */
export const appendBatch = async (
  dir: string,
  runId: string,
  steps: ReadonlyArray<EventsFor>,
  options: AppendOptions & Readonly<{ onAppended?: (result: AppendResult, index: number) => void }>,
): Promise<ReadonlyArray<AppendResult>> => {
  const paths = runPaths(dir, runId);
  const results: AppendResult[] = [];
  const acknowledge = (result: AppendResult): void => {
    results.push(result);
    options.onAppended?.(result, results.length - 1);
  };
  // the lock, the log, its head and checkpoint all live in runs/: never written through a link
  refuseLink(paths.runs);
  const lock = await acquireRunLock(paths, options).catch((e: unknown) => {
    // no runs directory at all: the lock could not even be made
    throw isMissing(e) ? missingRun(runId, paths.runs) : e;
  });
  let unsynced: Unsynced | null;
  try {
    unsynced = appendLocked(paths, runId, steps, options, lock, acknowledge);
  } finally {
    lock.release();
  }
  reached('released');
  if (unsynced === null) return results;
  // synchronous, as the anchor's is: a thread-pool hop costs more than it could overlap (measured)
  try {
    try {
      fsyncSync(unsynced.fd);
    } catch (e) {
      forgetCheckpoint(paths.log);
      throw e;
    }
    reached('synced');
    anchor(unsynced);
    reached('anchored');
  } finally {
    closeAll([unsynced.headFd, unsynced.fd]);
  }
  acknowledge(unsynced.result);
  return results;
};

/**
 * Append events to a run's log: under the run's lock, fold the log (from a matching checkpoint),
 * check `expectedSeq`, check every new event with `evolve`, then write the new lines at the end in
 * one write and `fsync`. Resolves only after the fsync; refuses (throws) with nothing written otherwise.
 */
export const append = async (
  dir: string,
  runId: string,
  eventsFor: EventsFor,
  options: AppendOptions,
): Promise<AppendResult> => {
  const [result] = await appendBatch(dir, runId, [eventsFor], options);
  return result as AppendResult;
};
