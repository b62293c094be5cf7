import * as E from 'fp-ts/lib/Either.js';
import { ClearanceError, refusal } from '../errors.js';
import type { DomainEvent } from '../events/event.js';
import type { Rejection } from '../events/rejection.js';
import { evolveAll } from '../projections/decide.js';
import type { Folded } from '../projections/fold.js';
import type { RunState } from '../projections/state.js';
import { type Encoded, encodeEvents } from './log-format.js';

/** The events to append, or a function that builds them from the run's state under the lock. */
export type EventsFor =
  | ReadonlyArray<DomainEvent>
  | ((state: RunState, folded: Folded) => E.Either<Rejection, ReadonlyArray<DomainEvent>>);

/**
 * What every store does between taking a run's lock and writing: check `expectedSeq`, build the
 * events from the folded state, check each with `evolve`, and encode them as lines chained after
 * the last one. Throws the refusal with nothing written; null when there is nothing to write.
 */
export const prepareAppend = (
  runId: string,
  at: Readonly<{ seq: number; hash: string; folded: Folded }>,
  eventsFor: EventsFor,
  options: Readonly<{ expectedSeq?: number; by: string; now?: () => Date }>,
): Encoded | null => {
  if (options.expectedSeq !== undefined && options.expectedSeq !== at.seq) {
    throw new ClearanceError(
      'seq-mismatch',
      `run ${runId} is at seq ${at.seq}, not the expected ${options.expectedSeq}: someone appended since you read it`,
      { expectedSeq: options.expectedSeq, seq: at.seq },
    );
  }
  const built = typeof eventsFor === 'function' ? eventsFor(at.folded.state, at.folded) : E.right(eventsFor);
  if (E.isLeft(built)) throw refusal(built.left);
  const checked = evolveAll(at.folded.state, built.right);
  if (E.isLeft(checked)) throw refusal(checked.left);
  if (built.right.length === 0) return null;
  const stamp = (options.now?.() ?? new Date()).toISOString();
  return encodeEvents(built.right, { seq: at.seq, hash: at.hash }, { at: stamp, by: options.by });
};
