import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../events/event.js';
import type { Policy } from '../events/policy.js';
import { evolveAll } from '../projections/decide.js';
import { initialState, isFinal, type RunState } from '../projections/state.js';
import { policyArb } from './policies.js';
import { type RoundChoices, roundChoicesArb, roundEvents } from './rounds.js';

export type GeneratedRun = Readonly<{
  policy: Policy | null;
  events: ReadonlyArray<DomainEvent>;
  state: RunState;
}>;

export const RUN_ID = 'generated-run';

/** Fold generated rounds until the run is final or the choices run out. */
export const runFrom = (
  policy: Policy,
  rounds: ReadonlyArray<RoundChoices>,
  keep = Number.POSITIVE_INFINITY,
): GeneratedRun => {
  const events: DomainEvent[] = [
    {
      type: 'run.opened',
      data: { runId: RUN_ID, policy, subject: { repo: '.' }, consent: { by: 'fast-check' } },
    },
  ];
  let state: RunState = initialState;
  const opened = evolveAll(state, events);
  if (E.isLeft(opened)) throw new Error(`runFrom: ${opened.left.message}`);
  state = opened.right;
  for (const choices of rounds) {
    if (isFinal(state.status)) break;
    const next = roundEvents(state, choices);
    events.push(...next);
    const after = evolveAll(state, next);
    if (E.isLeft(after)) throw new Error(`runFrom: ${after.left.message}`);
    state = after.right;
  }
  const kept = events.slice(0, keep);
  if (kept.length === events.length) return { policy, events, state };
  const prefix = evolveAll(initialState, kept);
  if (E.isLeft(prefix)) throw new Error(`runFrom: ${prefix.left.message}`);
  return { policy, events: kept, state: prefix.right };
};

/**
 * Reachable runs: a policy, the valid events of up to 6 generated rounds, and the state they fold
 * to. Some are cut mid-round (a capture with no report yet) and some are the empty, unopened run.
 */
export const reachableRunArb: fc.Arbitrary<GeneratedRun> = fc.oneof(
  { weight: 1, arbitrary: fc.constant<GeneratedRun>({ policy: null, events: [], state: initialState }) },
  {
    weight: 12,
    arbitrary: fc
      .record({
        policy: policyArb,
        rounds: fc.array(roundChoicesArb, { maxLength: 6 }),
        cut: fc.option(fc.nat({ max: 30 }), { freq: 3 }),
      })
      .map(({ policy, rounds, cut }) =>
        runFrom(policy, rounds, cut === null ? Number.POSITIVE_INFINITY : cut + 1),
      ),
  },
);
