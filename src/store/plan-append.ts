import type { DomainEvent, StoredEvent } from '@clearance/fold/internal/events/event.js';
import type { Rejection } from '@clearance/fold/internal/events/rejection.js';
import type { Command } from '@clearance/fold/internal/projections/commands.js';
import { offer, offerCommand } from '@clearance/fold/internal/projections/decider.js';
import type { Folded } from '@clearance/fold/internal/projections/fold.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../errors.js';
import { type Encoded, encodeEvents } from './log-format.js';
import { nodeDecider } from './node-decider.js';

/**
 * What an append offers: a command, decided against the run's state under the lock; events built
 * already; or a function that builds them from that state (a caller with a decision of its own).
 */
export type EventsFor =
  | Command
  | ReadonlyArray<DomainEvent>
  | ((state: RunState) => E.Either<Rejection, ReadonlyArray<DomainEvent>>);

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
 * What every store does between taking a run's lock and writing: offer the events (a command's,
 * built from the folded state) as `offer` does for everyone, each placed as the line it will be
 * (its seq, and the `prev` it follows: a signed ruling is checked against it) and passed through
 * `evolve` once; the state and trail after the write are those. A retry of what is already on the
 * record writes nothing. Throws the refusal with nothing written.
 */
export const planAppend = (
  state: RunState,
  after: Readonly<{ seq: number; hash: string }>,
  eventsFor: EventsFor,
  options: Readonly<{ by: string; now?: () => Date }>,
): AppendPlan => {
  let encoded: Encoded | undefined;
  const place = (events: ReadonlyArray<DomainEvent>): ReadonlyArray<StoredEvent> => {
    const stamp = (options.now?.() ?? new Date()).toISOString();
    encoded = encodeEvents(events, after, { at: stamp, by: options.by });
    return encoded.stored;
  };
  const { evolve } = nodeDecider;
  const firstSeq = after.seq + 1;
  const offered =
    typeof eventsFor === 'function'
      ? E.chain((events: ReadonlyArray<DomainEvent>) => offer(evolve, state, events, place, firstSeq))(
          eventsFor(state),
        )
      : Array.isArray(eventsFor)
        ? offer(evolve, state, eventsFor, place, firstSeq)
        : offerCommand(evolve, eventsFor as Command, state, place, firstSeq);
  if (E.isLeft(offered)) throw refusal(offered.left);
  const plan = offered.right;
  if (plan.kind !== 'new' || encoded === undefined)
    return { kind: plan.kind === 'new' ? 'nothing' : plan.kind };
  return { kind: 'write', encoded, folded: plan.folded };
};
