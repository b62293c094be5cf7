import { closeSync, fsyncSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../errors.js';
import type { DomainEvent, StoredEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { evolveAll } from '../projections/decide.js';
import { type Folded, fold } from '../projections/fold.js';
import type { RunState } from '../projections/state.js';
import { readHead, writeHead } from './head.js';
import { type LockOptions, withRunLock } from './lock.js';
import { encodeEvents, parseLog, type TornTail } from './log-format.js';
import { runPaths } from './paths.js';
import { integrityError } from './read.js';

/** The events to append, or a function that builds them from the run's state under the lock. */
export type EventsFor =
  | ReadonlyArray<DomainEvent>
  | ((state: RunState, folded: Folded) => E.Either<Rejection, ReadonlyArray<DomainEvent>>);

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
  /** the folded run after the append */
  folded: Folded;
  /** a torn tail (a never-acknowledged partial line) this append truncated, if there was one */
  repairedTail: TornTail | null;
}>;

/** Write all of `text` at `position`: one write in practice; the loop only covers a short write. */
const writeAll = (fd: number, text: string, position: number): void => {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length; )
    done += writeSync(fd, bytes, done, bytes.length - done, position + done);
};

/**
 * Append events to a run's log: under the run's lock, read, check and fold the log, check
 * `expectedSeq`, check every new event with `evolve`, then write the new lines in one write and
 * `fsync`. Resolves only after the fsync; refuses (throws) with nothing written otherwise.
 */
export const append = async (
  dir: string,
  runId: string,
  eventsFor: EventsFor,
  options: AppendOptions,
): Promise<AppendResult> => {
  const paths = runPaths(dir, runId);
  const missing = () =>
    new ClearanceError(
      'run-missing',
      `no run ${runId} in ${paths.runs}: open it first (clearance open ${runId})`,
      {
        runId,
      },
    );
  const isMissing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';
  return withRunLock(
    paths,
    async (guard) => {
      // Inside the lock the I/O is synchronous on purpose: every thread-pool hop lengthens the
      // time other appenders wait, and here it doubled it. The section is short (a small log, one
      // write, one fsync), so the event loop is held for about a millisecond.
      let fd: number;
      try {
        fd = openSync(paths.log, 'r+');
      } catch (e) {
        throw isMissing(e) ? missing() : e;
      }
      try {
        const head = readHead(paths.head);
        const parsed = parseLog(readFileSync(fd), head.head);
        const damaged = integrityError({ issue: parsed.issue, path: paths.log, runId });
        if (damaged !== null) throw damaged;
        const folded = fold(parsed.events);
        if (options.expectedSeq !== undefined && options.expectedSeq !== parsed.lastSeq) {
          throw new ClearanceError(
            'seq-mismatch',
            `run ${runId} is at seq ${parsed.lastSeq}, not the expected ${options.expectedSeq}: someone appended since you read it`,
            { expectedSeq: options.expectedSeq, seq: parsed.lastSeq },
          );
        }
        const built = typeof eventsFor === 'function' ? eventsFor(folded.state, folded) : E.right(eventsFor);
        if (E.isLeft(built)) throw refusal(built.left);
        const checked = evolveAll(folded.state, built.right);
        if (E.isLeft(checked)) throw refusal(checked.left);
        if (built.right.length === 0) return { appended: [], folded, repairedTail: null };
        const at = (options.now?.() ?? new Date()).toISOString();
        const encoded = encodeEvents(
          built.right,
          { seq: parsed.lastSeq, hash: parsed.lastHash },
          { at, by: options.by },
        );
        guard.assertHeld();
        // a torn tail was never acknowledged: drop it so the new lines chain after the last good one
        if (parsed.tornTail !== null) ftruncateSync(fd, parsed.size);
        writeAll(fd, encoded.text, parsed.size);
        fsyncSync(fd);
        writeHead(paths.head, { seq: encoded.lastSeq, hash: encoded.lastHash });
        return {
          appended: encoded.stored,
          folded: fold(encoded.stored, folded),
          repairedTail: parsed.tornTail,
        };
      } finally {
        closeSync(fd);
      }
    },
    options,
  ).catch((e: unknown) => {
    // no runs directory at all: the lock directory could not even be made
    throw isMissing(e) ? missing() : e;
  });
};
