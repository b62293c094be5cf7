import { fc, test } from '@fast-check/vitest';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import {
  type DomainEvent,
  decide,
  evolve,
  fold,
  initialState,
  isFinal,
  openBlockingFindings,
  type RunState,
} from '../src/index.js';
import { reachableRunArb, roundChoicesArb, validRoundArb } from '../src/testing.js';
import { deepFreeze, numRuns } from './runs.js';

/** Every state a run passes through, step by step. */
const statesOf = (events: ReadonlyArray<Parameters<typeof evolve>[1]>): RunState[] => {
  const states: RunState[] = [initialState];
  let state = initialState;
  for (const e of events) {
    const next = evolve(state, e);
    if (E.isRight(next)) state = next.right;
    states.push(state);
  }
  return states;
};

describe('verdicts', () => {
  test.prop([reachableRunArb], { numRuns })(
    'no reachable state is converged with an open blocking finding',
    (run) => {
      for (const state of statesOf(run.events)) {
        if (state.status === 'converged') expect(openBlockingFindings(state)).toEqual([]);
      }
    },
  );

  test.prop([reachableRunArb], { numRuns })(
    'reaching the cap with an open blocking finding is blocked, and only that is',
    (run) => {
      for (const state of statesOf(run.events)) {
        const cap = state.run?.policy.maxRounds;
        if (cap !== undefined && state.round === cap && openBlockingFindings(state).length > 0)
          expect(state.status).toBe('blocked');
        if (state.status === 'blocked') {
          expect(state.round).toBe(cap);
          expect(openBlockingFindings(state).length).toBeGreaterThan(0);
        }
      }
    },
  );

  test.prop(
    [
      reachableRunArb
        .filter((r) => r.state.run !== null && !isFinal(r.state.status))
        .chain((run) => fc.tuple(fc.constant(run), validRoundArb(run.state))),
    ],
    { numRuns },
  )(
    'a valid report for the next round is accepted, and its declared verdict is the derived one',
    ([run, round]) => {
      const state = deepFreeze(run.state);
      const result = decide(state, round.report, {
        capture: round.capture,
        ...(round.citations === undefined ? {} : { citations: round.citations }),
      });
      expect(E.isRight(result)).toBe(true);
      if (E.isRight(result)) expect(result.right.state.status).toBe(round.status);
    },
  );

  test.prop([reachableRunArb.filter((r) => isFinal(r.state.status)), roundChoicesArb, fc.nat()], { numRuns })(
    'final states accept nothing: no capture, no report, no failure',
    (run, _choices, n) => {
      const state = deepFreeze(run.state);
      const round = state.round + 1 + (n % 2);
      const runId = state.run?.runId ?? '';
      const capture = { round, inputSha: 'x', touchedFiles: [], renames: [] };
      const offers: DomainEvent[] = [
        { type: 'revision.captured', data: capture },
        { type: 'round.failed', data: { round, inputSha: 'x', reason: 'timeout', detail: 'late' } },
      ];
      for (const offer of offers) {
        const result = evolve(state, offer);
        expect(E.isLeft(result) && result.left.code).toBe('run-final');
      }
      const report = { runId, round, inputSha: 'x', completed: true };
      const decided = decide(state, report, { capture });
      expect(E.isLeft(decided) && decided.left.code).toBe('run-final');
      expect(fold([...run.events, ...offers]).state).toEqual(state);
    },
  );
});
