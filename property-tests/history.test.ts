import * as E from 'fp-ts/lib/Either.js';
import { describe, expect } from 'vitest';
import { type FindingStep, findingsInOrder, historyOf, initialState, roundsOpenOf } from '../src/index.js';
import { reachableRunArb } from '../src/testing.js';
import { evolve } from '../test/support/decider.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

/**
 * The history as the fold used to store it, one step per finding per ended round, rebuilt from
 * the events: the reference `historyOf` must equal now that carrying is derived.
 */
const storedPerRound = (events: Parameters<typeof evolve>[1][]): Map<string, FindingStep[]> => {
  const steps = new Map<string, FindingStep[]>();
  let state = initialState;
  for (const event of events) {
    const next = evolve(state, event);
    if (E.isLeft(next)) throw new Error(`generated run refused ${event.type}: ${next.left.message}`);
    const openBefore = findingsInOrder(state).filter((f) => f.status === 'open');
    // a record of CI checks whose required check failed ends its round, as round.ended ci_failed does
    const endedByChecks = event.type === 'checks.recorded' && next.right.round > state.round;
    if (event.type === 'round.recorded' || event.type === 'round.ended' || endedByChecks) {
      const round = event.data.round;
      const decided = new Map(
        event.type === 'round.recorded' ? event.data.report.decisions.map((d) => [d.id, d]) : [],
      );
      for (const f of openBefore) {
        const d = decided.get(f.id);
        if (d?.status === 'reopened') throw new Error('an open finding was reopened');
        steps
          .get(f.id)
          ?.push(
            d === undefined
              ? { round, how: 'carried', status: 'open' }
              : { round, how: 'decided', status: d.status, evidence: d.evidence },
          );
      }
      // a fixed finding reopened: open again from this round, the step says how it came back
      for (const d of decided.values())
        if (d.status === 'reopened')
          steps.get(d.id)?.push({ round, how: 'reopened', status: 'open', evidence: d.evidence });
      for (const id of findingsInOrder(next.right).map((f) => f.id))
        if (!steps.has(id)) steps.set(id, [{ round, how: 'opened', status: 'open' }]);
    }
    if (event.type === 'finding.ruled') {
      const { findingId, status, why, by } = event.data;
      steps.get(findingId)?.push({ round: state.round, how: 'ruled', status, evidence: why, by });
    }
    state = next.right;
  }
  return steps;
};

describe('a finding history derived, not copied per round', () => {
  property([reachableRunArb], { numRuns })(
    'historyOf equals one stored step per ended round, and roundsOpenOf counts its open steps',
    (run) => {
      const reference = storedPerRound([...run.events]);
      for (const f of findingsInOrder(run.state)) {
        const history = historyOf(run.state, f);
        expect(history).toEqual(reference.get(f.id));
        expect(roundsOpenOf(run.state, f)).toBe(history.filter((s) => s.status === 'open').length);
      }
    },
  );
});
