import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import {
  type DomainEvent,
  disputeBlockAfter,
  findingOf,
  historyOf,
  initialState,
  last,
  maxRoundsOf,
  PRESETS,
  type RunState,
} from '../src/index.js';
import { policyArb, reachableRunArb, roundChoicesArb, runFrom } from '../src/testing.js';
import { evolve } from '../test/support/decider.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

/** Every state a run passes through, with the event that led to it. */
const stepsOf = (events: ReadonlyArray<DomainEvent>): Array<{ event: DomainEvent; state: RunState }> => {
  const out: Array<{ event: DomainEvent; state: RunState }> = [];
  let state = initialState;
  for (const event of events) {
    const next = evolve(state, event);
    if (E.isLeft(next)) throw new Error(`a generated run refused ${event.type}: ${next.left.message}`);
    state = next.right;
    out.push({ event, state });
  }
  return out;
};

/**
 * Both ways: a round stalls the run exactly when a blocking finding it decided shows, in its
 * history since the last extension, `stallRounds` rounds in a row decided open ending with this
 * one (a carried round breaks the streak), or a second reopening in this round; or when a blocking
 * finding the author disputed for it is upheld (decided open) for the policy's `blockAfter`-th
 * time since the last extension.
 */
const stallsMatchHistory = (events: ReadonlyArray<DomainEvent>): number => {
  let stalls = 0;
  let before = initialState;
  for (const { event, state } of stepsOf(events)) {
    if (
      state.stall?.findings.some((f) => f.why !== 'disputed') === true &&
      state.run?.policy.stallRounds === undefined
    )
      throw new Error('a run whose policy has no stallRounds stalled');
    if (event.type === 'round.recorded') {
      const rounds = state.run?.policy.stallRounds;
      const since = last(state.extensions)?.round ?? 0;
      const expected: string[] = [];
      for (const d of event.data.report.decisions) {
        const finding = findingOf(state, d.id);
        if (rounds === undefined || finding === undefined || !finding.blocking) continue;
        const history = historyOf(state, finding).filter((s) => s.round > since && s.how !== 'opened');
        const tail = history.slice(-rounds).map((s) => `${s.round} ${s.how} ${s.status}`);
        const streak = Array.from(
          { length: rounds },
          (_, i) => `${state.round - rounds + 1 + i} decided open`,
        );
        if (JSON.stringify(tail) === JSON.stringify(streak)) expected.push(`${d.id} kept-open`);
        if (d.status === 'reopened' && history.filter((s) => s.how === 'reopened').length >= 2)
          expected.push(`${d.id} reopened-twice`);
      }
      const policy = state.run?.policy;
      for (const id of before.disputed) {
        const finding = findingOf(state, id);
        if (policy === undefined || finding === undefined || !finding.blocking || finding.status !== 'open')
          continue;
        const upheld = (finding.disputes ?? []).filter(
          (dispute) => dispute.ruling?.status === 'open' && dispute.ruling.round > since,
        ).length;
        if (upheld >= disputeBlockAfter(policy)) expected.push(`${id} disputed`);
      }
      const named =
        state.stall === before.stall ? [] : (state.stall?.findings ?? []).map((f) => `${f.id} ${f.why}`);
      expect(named.sort()).toEqual(expected.sort());
      if (named.length > 0) {
        stalls += 1;
        expect(state.status).toBe('blocked');
        expect(state.stall?.round).toBe(state.round);
      }
    }
    // blocked before the cap only by a stall
    if (state.status === 'blocked' && state.round < maxRoundsOf(state)) expect(state.stall).not.toBeNull();
    before = state;
  }
  return stalls;
};

/** Runs that stall often: stalls on, every file touched, decisions open or fixed, a fixed finding reopened each round. */
const stallingRunArb = fc
  .record({
    policy: policyArb.map((p) => ({ ...p, stallRounds: p.stallRounds ?? 2, maxRounds: 6 })),
    rounds: fc.array(
      fc.record({
        choices: roundChoicesArb,
        statuses: fc.array(fc.constantFrom('open' as const, 'fixed' as const), {
          minLength: 1,
          maxLength: 3,
        }),
        reopen: fc.option(fc.nat({ max: 2 }), { nil: null, freq: 3 }),
      }),
      { minLength: 2, maxLength: 6 },
    ),
    persons: fc.array(fc.constantFrom('rule' as const, 'extend' as const, null), { maxLength: 2 }),
  })
  .map(({ policy, rounds, persons }) =>
    runFrom(
      policy,
      rounds.map(({ choices, statuses, reopen }) => ({
        ...choices,
        touched: choices.touched.map(() => true),
        statuses,
        reopen,
        ending: null,
      })),
      Number.POSITIVE_INFINITY,
      persons,
    ),
  );

describe('stalls caught before the cap', () => {
  property([reachableRunArb], { numRuns })(
    'in any reachable run, a round stalls the run exactly when a finding it decided shows why in its history',
    (run) => {
      stallsMatchHistory(run.events);
    },
  );

  property([stallingRunArb], { numRuns })(
    'the same, in runs built to stall (decided open in a row, reopened again and again)',
    (run) => {
      stallsMatchHistory(run.events);
    },
  );

  property(
    [
      policyArb.map((p) => ({ ...p, stallRounds: p.stallRounds ?? 2 })),
      fc.array(
        roundChoicesArb.map((c) => ({
          ...c,
          statuses: c.statuses.map((s) => (s === 'open' ? 'fixed' : s)),
          reopen: null,
          // an untouched finding may be decided open where the policy allows it, or a dispute asks: not here
          decideUntouched: false,
          dispute: null,
        })),
        { minLength: 1, maxLength: 6 },
      ),
    ],
    { numRuns },
  )(
    'a run never stalls when every blocking finding is fixed (or withdrawn) and stays fixed',
    (policy, rounds) => {
      const run = runFrom(policy, rounds);
      for (const { state } of stepsOf(run.events)) expect(state.stall).toBeNull();
    },
  );

  property([fc.array(roundChoicesArb, { minLength: 1, maxLength: 6 })], { numRuns })(
    'the default and issueflow presets never stall: stalls are off unless a policy sets stallRounds (disputes upheld past the count still block)',
    (rounds) => {
      for (const policy of [PRESETS.default, PRESETS.issueflow]) {
        const run = runFrom(policy, rounds);
        for (const { state } of stepsOf(run.events))
          expect((state.stall?.findings ?? []).filter((f) => f.why !== 'disputed')).toEqual([]);
      }
    },
  );
});
