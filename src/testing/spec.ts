import { deepStrictEqual, strictEqual } from 'node:assert/strict';
import * as E from '#either';
import type { DomainEvent } from '../events/event.js';
import type { Rejection, RejectionCode } from '../events/rejection.js';
import type { RoundReport } from '../events/report-types.js';
import { parseReport } from '../events/round-report.js';
import type { Command, DecideContext } from '../projections/commands.js';
import type { RunDecider } from '../projections/decider.js';
import { fold } from '../projections/fold.js';
import type { RunState } from '../projections/state.js';
import { decideAndApply } from './decide.js';

/** Freeze a value and everything inside it, so a rule that mutates its input throws in strict mode. */
export const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};

const accepted = (decider: RunDecider, events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(decider.evolve, deepFreeze(structuredClone(events)));
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined)
    throw new Error(`given: event ${refused.seq} was refused: ${refused.rejection?.message}`);
  return state;
};

/** What an offer became: the events it decided and the state after them, or the rule that refused it. */
type Outcome = E.Either<Rejection, Readonly<{ events: ReadonlyArray<DomainEvent>; state: RunState }>>;

/** The three ways a specification ends, each asserting the state and the offer were never touched. */
export type Then = Readonly<{
  /** it is refused with `code` (and a message matching `message`, when given) */
  rejects: (code: RejectionCode, message?: string | RegExp) => Rejection;
  /** it is accepted: the state after it */
  accepts: () => RunState;
  /**
   * it is accepted and becomes exactly these events: the state after them. This is Emmett's
   * `then(events)`, spelt `emits`, because an object with a `then` method is a thenable: `await`
   * on it would call it.
   */
  emits: (events: ReadonlyArray<DomainEvent>) => RunState;
}>;

export type Given = Readonly<{
  /** the state the events fold to */
  state: RunState;
  /** a command, as the decider takes it: `decide`, its events checked by `evolve` */
  when: (command: Command) => Then;
  /** a round report as untrusted input (its shape checked by the report schema first), with what `record` adds */
  whenReport: (report: unknown, context?: DecideContext) => Then;
  /** a raw event straight to `evolve`, as a log written by someone else would hold it */
  whenEvent: (event: DomainEvent) => Then;
  /** the round in progress closed from its contributions (the `merge` command) */
  whenMerged: () => Then;
}>;

export type Specification = Readonly<{
  given: (...events: DomainEvent[]) => Given;
  /** every rejection code a `rejects` of this specification asserted */
  rejectionsSeen: ReadonlySet<RejectionCode>;
}>;

/**
 * Given/when/then for a decider's rules, in the style of Emmett's decider specifications:
 * `specification(decider).given(...events).when(command).emits(events)`, `.accepts()` or
 * `.rejects(code)`. Every offer is
 * frozen, so a rule that mutates it throws; a refusal also proves the state folded from `given`
 * and the offer are exactly as they were. Each specification keeps its own `rejectionsSeen`, so a
 * test file that makes one can assert which codes *it* reached. Assertions throw node's
 * `AssertionError`, which every test runner reports.
 */
export const specification = (decider: RunDecider): Specification => {
  const seen = new Set<RejectionCode>();
  const given = (...events: DomainEvent[]): Given => {
    const state = accepted(decider, events);
    const before = structuredClone(state);
    const untouched = (offer: unknown, frozen: unknown) => {
      deepStrictEqual(state, before, 'the state given was changed');
      deepStrictEqual(frozen, offer, 'the offer was changed');
    };
    const outcome = (offer: unknown, frozen: unknown, result: Outcome): Then => {
      const accepts = () => {
        if (E.isLeft(result))
          throw new Error(`expected acceptance, got ${result.left.code}: ${result.left.message}`);
        untouched(offer, frozen);
        return result.right;
      };
      return {
        rejects: (code, message) => {
          if (E.isRight(result)) throw new Error(`expected rejection ${code}, but it was accepted`);
          strictEqual(
            result.left.code,
            code,
            `refused ${result.left.code} (${result.left.message}), not ${code}`,
          );
          if (typeof message === 'string' && !result.left.message.includes(message))
            throw new Error(
              `the refusal says ${JSON.stringify(result.left.message)}, not ${JSON.stringify(message)}`,
            );
          if (message instanceof RegExp && !message.test(result.left.message))
            throw new Error(
              `the refusal says ${JSON.stringify(result.left.message)}, which ${message} does not match`,
            );
          untouched(offer, frozen);
          seen.add(code);
          return result.left;
        },
        accepts: () => accepts().state,
        emits: (expected) => {
          const decided = accepts();
          deepStrictEqual(decided.events, expected, 'the offer decided other events');
          return decided.state;
        },
      };
    };
    const decided = (command: Command) => decideAndApply(state, command, decider);
    const when = (command: Command): Then => {
      const frozen = deepFreeze(structuredClone(command));
      return outcome(command, frozen, decided(frozen));
    };
    return {
      state,
      when,
      whenReport: (report, context = {}) => {
        const frozen = deepFreeze(structuredClone(report));
        const parsed = parseReport(frozen);
        return outcome(
          report,
          frozen,
          E.chain((r: RoundReport) =>
            decided({ kind: 'record', report: r, context: deepFreeze(structuredClone(context)) }),
          )(parsed),
        );
      },
      whenEvent: (event) => {
        const frozen = deepFreeze(structuredClone(event));
        return outcome(
          event,
          frozen,
          E.map((next: RunState) => ({ events: [frozen], state: next }))(decider.evolve(state, frozen)),
        );
      },
      whenMerged: () => outcome(null, null, decided({ kind: 'merge' })),
    };
  };
  return { given, rejectionsSeen: seen };
};
