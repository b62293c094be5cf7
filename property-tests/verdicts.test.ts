import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import {
  type DomainEvent,
  findingsInOrder,
  initialState,
  isFinal,
  last,
  maxRoundsOf,
  openBlockingFindings,
  type RunState,
} from '../src/index.js';
import { reachableRunArb, roundChoicesArb, validRoundArb } from '../src/testing.js';
import { decide, decideUntrusted, evolve, fold } from '../test/support/decider.js';
import { property } from './property.js';
import { deepFreeze, numRuns } from './runs.js';

/** Every state a run passes through, step by step. */
const statesOf = (events: ReadonlyArray<DomainEvent>): RunState[] => {
  const states: RunState[] = [initialState];
  let state = initialState;
  for (const e of events) {
    const next = evolve(state, e);
    if (E.isRight(next)) state = next.right;
    states.push(state);
  }
  return states;
};

const lastOutcome = (state: RunState) => last(state.outcomes)?.result;

describe('verdicts', () => {
  property([reachableRunArb], { numRuns })(
    'converged means no open blocking finding and a complete last round: a partial round never converges',
    (run) => {
      for (const state of statesOf(run.events)) {
        if (state.status !== 'converged') continue;
        expect(openBlockingFindings(state)).toEqual([]);
        expect(lastOutcome(state)).toBe('complete');
      }
    },
  );

  property([reachableRunArb], { numRuns })(
    'reaching the cap with an open blocking finding is blocked; blocked means the cap was reached, or a stall, without convergence',
    (run) => {
      for (const state of statesOf(run.events)) {
        const cap = maxRoundsOf(state);
        if (state.run === null) continue;
        if (state.round >= cap && openBlockingFindings(state).length > 0)
          expect(state.status).toBe('blocked');
        if (state.status === 'blocked') {
          if (state.stall === null) expect(state.round).toBeGreaterThanOrEqual(cap);
          expect(openBlockingFindings(state).length > 0 || lastOutcome(state) !== 'complete').toBe(true);
        }
      }
    },
  );

  property(
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
        ...(round.checks === undefined ? {} : { checks: round.checks }),
        result: round.result,
        ...(round.citations === undefined ? {} : { citations: round.citations }),
      });
      expect(E.isRight(result)).toBe(true);
      if (E.isRight(result)) expect(result.right.state.status).toBe(round.status);
    },
  );

  property([reachableRunArb.filter((r) => isFinal(r.state.status)), roundChoicesArb, fc.nat()], { numRuns })(
    'final states take no more rounds, captures, stages, checks or failures; a converged run takes nothing at all',
    (run, _choices, n) => {
      const state = deepFreeze(run.state);
      const round = state.round + 1 + (n % 2);
      const runId = state.run?.runId ?? '';
      const capture = { round, inputSha: 'x', touchedFiles: [], renames: [] };
      const offers: DomainEvent[] = [
        { type: 'revision.captured', data: capture },
        { type: 'round.failed', data: { round, inputSha: 'x', reason: 'timeout', detail: 'late' } },
        { type: 'stage.started', data: { round, stage: 'planning', commands: [] } },
        { type: 'round.ended', data: { round, result: 'none', reason: 'nothing to review' } },
        {
          type: 'checks.recorded',
          data: { round, inputSha: 'x', checks: [{ name: 'test', state: 'failed' }] },
        },
      ];
      for (const offer of offers) {
        const result = evolve(state, offer);
        expect(E.isLeft(result) && result.left.code).toBe('run-final');
      }
      const decided = decideUntrusted(state, { runId, round, inputSha: 'x', completed: true }, { capture });
      expect(E.isLeft(decided) && decided.left.code).toBe('run-final');
      if (state.status === 'converged') {
        const person: DomainEvent[] = [
          { type: 'rounds.extended', data: { rounds: 1, why: 'more', by: 'Ada' } },
          ...findingsInOrder(state)
            .map((f) => f.id)
            .map(
              (findingId) =>
                ({
                  type: 'finding.ruled',
                  data: { findingId, status: 'fixed', why: 'w', by: 'Ada' },
                }) as const,
            ),
        ];
        for (const offer of person) expect(E.isLeft(evolve(state, offer))).toBe(true);
      }
      expect(fold([...run.events, ...offers]).state).toEqual(state);
    },
  );
});
