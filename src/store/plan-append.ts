import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../errors.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { type Folded, foldOffered } from '../projections/fold.js';
import { alreadyRecorded } from '../projections/rules/retry.js';
import type { RunState } from '../projections/state.js';
import { type Encoded, encodeEvents } from './log-format.js';

/** The events to append, or a function that builds them from the run's state under the lock. */
export type EventsFor =
  | ReadonlyArray<DomainEvent>
  | ((state: RunState, folded: Folded) => E.Either<Rejection, ReadonlyArray<DomainEvent>>);

/** What an append found it must do, under the lock: write lines, nothing, or nothing because it is a retry. */
export type AppendPlan = Readonly<
  { kind: 'write'; encoded: Encoded; folded: Folded } | { kind: 'nothing' } | { kind: 'already-recorded' }
>;

/** Refuse unless the log's last seq is the one the driver read (optimistic concurrency). */
export const checkExpectedSeq = (runId: string, seq: number, expectedSeq: number | undefined): void => {
  if (expectedSeq !== undefined && expectedSeq !== seq) {
    throw new ClearanceError(
      'seq-mismatch',
      `run ${runId} is at seq ${seq}, not the expected ${expectedSeq}: someone appended since you read it`,
      { expectedSeq, seq },
    );
  }
};

/**
 * What every store does between taking a run's lock and writing: build the events from the folded
 * state, answer a retry of what is already on the record (every event already there) with nothing
 * to write, check each event with `evolve` (once: the state after them is kept), and encode them as lines chained after the last one.
 * Throws the refusal with nothing written.
 */
export const planAppend = (
  state: RunState,
  after: Readonly<{ seq: number; hash: string }>,
  eventsFor: EventsFor,
  options: Readonly<{ by: string; now?: () => Date }>,
): AppendPlan => {
  const built = typeof eventsFor === 'function' ? eventsFor(state, { state, trail: [] }) : E.right(eventsFor);
  if (E.isLeft(built)) throw refusal(built.left);
  if (built.right.length === 0) return { kind: 'nothing' };
  if (built.right.every((event) => alreadyRecorded(state, event))) return { kind: 'already-recorded' };
  const stamp = (options.now?.() ?? new Date()).toISOString();
  const encoded = encodeEvents(built.right, after, { at: stamp, by: options.by });
  // each new event passes `evolve` here, once, as the line it will be (its seq and the `prev` it
  // follows: a signed ruling is checked against it): the state and trail after the write are these
  const checked = foldOffered(state, encoded.stored, after.seq + 1);
  if (E.isLeft(checked)) throw refusal(checked.left);
  return { kind: 'write', encoded, folded: checked.right };
};
