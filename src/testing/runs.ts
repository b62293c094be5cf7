import fc from 'fast-check';
import * as E from '#either';
import type { DomainEvent } from '../events/event.js';
import type { Policy } from '../events/policy.js';
import { findingsInOrder } from '../projections/finding-index.js';
import { initialState, isFinal, type RunState } from '../projections/state.js';
import { evolveEach } from './decide.js';
import { policyArb } from './policies.js';
import { type RoundChoices, roundChoicesArb, roundEvents } from './rounds.js';

export type GeneratedRun = Readonly<{
  policy: Policy | null;
  events: ReadonlyArray<DomainEvent>;
  state: RunState;
}>;

export const RUN_ID = 'generated-run';

/** What a person does when the run is blocked: rule the blocking findings closed, or add rounds. */
export type PersonChoice = 'rule' | 'extend' | null;

const personEvents = (state: RunState, choice: PersonChoice): ReadonlyArray<DomainEvent> => {
  // under a policy that pins signers only a key holder decides, signing for a place in a log:
  // generated runs have neither, so the run stays blocked
  if (state.run?.policy.signers !== undefined) return [];
  if (choice === 'extend')
    return [{ type: 'rounds.extended', data: { rounds: 1, why: 'one more try', by: 'Ada' } }];
  if (choice === 'rule') {
    return findingsInOrder(state)
      .filter((f) => f.status === 'open' && f.blocking)
      .map(
        (f) =>
          ({
            type: 'finding.ruled',
            data: { findingId: f.id, status: 'withdrawn', why: 'accepted risk', by: 'Ada' },
          }) as const,
      );
  }
  return [];
};

/** Fold generated rounds until the run is final or the choices run out; a person may act when it is blocked. */
export const runFrom = (
  policy: Policy,
  rounds: ReadonlyArray<RoundChoices>,
  keep = Number.POSITIVE_INFINITY,
  persons: ReadonlyArray<PersonChoice> = [],
  commands: ReadonlyArray<string> = [],
): GeneratedRun => {
  const events: DomainEvent[] = [
    {
      type: 'run.opened',
      data: {
        runId: RUN_ID,
        policy,
        subject: { repo: '.' },
        consent: { by: 'fast-check', commands: [...commands] },
      },
    },
  ];
  const apply = (state: RunState, next: ReadonlyArray<DomainEvent>): RunState => {
    const after = evolveEach(state, next);
    if (E.isLeft(after)) throw new Error(`runFrom: ${after.left.code}: ${after.left.message}`);
    events.push(...next);
    return after.right;
  };
  let state = evolveEach(initialState, events);
  if (E.isLeft(state)) throw new Error(`runFrom: ${state.left.message}`);
  let current = state.right;
  let person = 0;
  for (const choices of rounds) {
    if (current.status === 'blocked' && person < persons.length)
      current = apply(current, personEvents(current, persons[person++] ?? null));
    if (isFinal(current.status)) break;
    current = apply(current, roundEvents(current, choices));
  }
  if (current.status === 'blocked' && person < persons.length)
    current = apply(current, personEvents(current, persons[person] ?? null));
  const kept = events.slice(0, keep);
  if (kept.length === events.length) return { policy, events, state: current };
  state = evolveEach(initialState, kept);
  if (E.isLeft(state)) throw new Error(`runFrom: ${state.left.message}`);
  return { policy, events: kept, state: state.right };
};

/**
 * Reachable runs: a policy, the valid events of up to 6 generated rounds (with stages, budgets,
 * early ends, and a person's rulings or extensions past the cap), and the state they fold to.
 * Some are cut mid-round and some are the empty, unopened run.
 */
export const reachableRunArb: fc.Arbitrary<GeneratedRun> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<GeneratedRun>({ policy: null, events: [], state: initialState }) },
  {
    weight: 12,
    arbitrary: fc
      .record({
        policy: policyArb,
        rounds: fc.array(roundChoicesArb, { minLength: 1, maxLength: 6 }),
        // half the runs stop before their cap, so open runs with a history are as common as final ones
        toTheEnd: fc.boolean(),
        cut: fc.option(fc.nat({ max: 60 }), { freq: 2 }),
        persons: fc.array(fc.constantFrom<PersonChoice>('rule', 'extend', null), { maxLength: 2 }),
        commands: fc.constantFrom([], ['npm test']),
      })
      .map(({ policy, rounds, toTheEnd, cut, persons, commands }) =>
        runFrom(
          policy,
          toTheEnd ? rounds : rounds.slice(0, Math.max(1, policy.maxRounds - 1)),
          cut === null ? Number.POSITIVE_INFINITY : cut + 1,
          persons,
          commands,
        ),
      ),
  },
);
