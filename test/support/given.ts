import * as E from 'fp-ts/lib/Either.js';
import { expect } from 'vitest';
import type {
  DecideContext,
  DomainEvent,
  Rejection,
  RejectionCode,
  RoundReport,
  RunState,
} from '../../src/index.js';
import { decideUntrusted, evolve, fold } from '../../src/index.js';
import { decideMerge } from '../../src/projections/decide.js';
import { resolved } from './builders.js';

/** Freeze a value and everything inside it, so a rule that mutates its input throws in strict mode. */
export const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

const foldAccepted = (events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(deepFreeze(events));
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined)
    throw new Error(`given: event ${refused.seq} was refused: ${refused.rejection?.message}`);
  return state;
};

/**
 * given(events).when(report, { capture?, citations? }) then `.rejects(code)` or `.accepts()`, in the style of
 * Emmett's decider specifications. A rejection also proves the state and the inputs are untouched.
 */
export const given = (...events: DomainEvent[]) => {
  const state = foldAccepted(events);
  const before = structuredClone(state);
  const outcome = (
    frozenOffer: unknown,
    offer: unknown,
    result: E.Either<Rejection, { state: RunState }>,
  ) => ({
    result,
    rejects: (code: RejectionCode, messagePart?: string | RegExp) => {
      if (E.isRight(result)) throw new Error(`expected rejection ${code}, but it was accepted`);
      expect(result.left.code).toBe(code);
      if (messagePart !== undefined) expect(result.left.message).toMatch(messagePart);
      expect(state).toEqual(before);
      expect(frozenOffer).toEqual(offer);
      rejectionsSeen.add(code);
      return result.left;
    },
    accepts: (): RunState => {
      if (E.isLeft(result))
        throw new Error(`expected acceptance, got ${result.left.code}: ${result.left.message}`);
      expect(state).toEqual(before);
      return result.right.state;
    },
  });
  return {
    state,
    /** offer a raw event straight to `evolve`, as a log written by someone else would */
    whenEvent: (event: DomainEvent) => {
      const frozen = deepFreeze(structuredClone(event));
      return outcome(frozen, event, E.map((next: RunState) => ({ state: next }))(evolve(state, frozen)));
    },
    when: (offer: unknown, context: DecideContext = {}) => {
      const frozenOffer = deepFreeze(structuredClone(offer));
      const result = decideUntrusted(state, frozenOffer, deepFreeze(structuredClone(context)));
      return outcome(frozenOffer, offer, result);
    },
    /** `record --merge`: close the round in progress from its contributions */
    whenMerged: () => outcome(null, null, decideMerge(state)),
    /** offer a report whose every citation resolved, as `clearance record` finds with git */
    whenCited(offer: RoundReport) {
      return this.when(offer, resolved(offer));
    },
  };
};

/** Every rejection code a `rejects` has asserted in this test file. */
export const rejectionsSeen = new Set<RejectionCode>();
