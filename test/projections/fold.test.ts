import { describe, expect, it } from 'vitest';
import { findingId, PRESETS, roundRecorded } from '../../src/index.js';
import { candidate, captured, decision, nit, opened, report } from '../support/builders.js';
import { fold } from '../support/decider.js';
import { deepFreeze } from '../support/given.js';

const major = candidate();
const log = deepFreeze([
  opened(),
  captured(1, 'A'),
  roundRecorded(report(1, 'A', { candidates: [major, nit(1)] })),
  captured(2, 'B', { touched: [major.file] }),
  roundRecorded(report(2, 'B')), // refused: no decision for the major
  {
    type: 'round.failed',
    data: {
      round: 2,
      inputSha: captured(2, 'B').data.inputSha,
      reason: 'timeout',
      detail: 'no report in 80 ms',
    },
  },
  roundRecorded(report(2, 'B', { decisions: [decision(major, 'fixed')] })),
] as const);

describe('fold', () => {
  it('keeps the state on a refused event and records the rejection in the trail', () => {
    const { state, trail } = fold(log);
    expect(state.status).toBe('converged');
    expect(trail.map((t) => [t.seq, t.type, t.status, t.rejection?.code ?? null])).toEqual([
      [1, 'run.opened', 'open', null],
      [2, 'revision.captured', 'open', null],
      [3, 'round.recorded', 'open', null],
      [4, 'revision.captured', 'open', null],
      [5, 'round.recorded', 'open', 'missing-decision'],
      [6, 'round.failed', 'open', null],
      [7, 'round.recorded', 'converged', null],
    ]);
    expect(trail[2]?.opened).toEqual([findingId(major), findingId(nit(1))]);
    expect(trail[5]?.failure).toEqual({ round: 2, reason: 'timeout', detail: 'no report in 80 ms' });
    expect(trail[6]?.changed).toEqual([{ id: findingId(major), from: 'open', to: 'fixed' }]);
  });

  it('is deterministic, and folding the rest from a prefix equals the full fold', () => {
    const whole = fold(log);
    expect(fold(log)).toEqual(whole);
    for (let cut = 0; cut <= log.length; cut += 1) {
      expect(fold(log.slice(cut), fold(log.slice(0, cut)))).toEqual(whole);
    }
  });

  it('uses envelope seq numbers when events carry them', () => {
    const { trail } = fold(log.map((e, i) => ({ ...e, seq: 100 + i })));
    expect(trail.map((t) => t.seq)).toEqual([100, 101, 102, 103, 104, 105, 106]);
  });

  it('a failed attempt changes no finding and the round can be recorded after it', () => {
    const { state } = fold(log.slice(0, 6));
    expect(state.round).toBe(1);
    expect(state.findings).toEqual(fold(log.slice(0, 4)).state.findings);
  });

  it('pins the policy: the rules of the run are those it was opened with', () => {
    const { state } = fold([opened(PRESETS.issueflow)]);
    expect(state.run?.policy).toEqual(PRESETS.issueflow);
  });
});
