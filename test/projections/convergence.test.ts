import { describe, expect, it } from 'vitest';
import {
  explain,
  feedbackOf,
  findingOf,
  findingsInOrder,
  type Policy,
  PRESETS,
  policyIsUsable,
  roundRecorded,
  statusOf,
} from '../../src/index.js';
import { toArray } from '../../src/projections/vec.js';
import { candidate, captured, idOf, nit, opened, report } from '../support/builders.js';
import { given } from '../support/given.js';

const minor = (n: number) =>
  candidate({ file: 'src/api.js', line: n, summary: `minor ${n}`, severity: 'minor' });
const major = candidate({ severity: 'major' });

describe('a severity floor that rises by round (untilRound)', () => {
  const rising: Policy = {
    ...PRESETS.default,
    maxRounds: 6,
    severities: {
      major: { blocks: true, firstRoundOnly: false, maxAdmitted: null },
      minor: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 2 },
      nit: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 1 },
    },
  };
  const round1 = [
    opened(rising),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [major, nit(1), minor(1)] })),
  ];

  it('given a minor admitted until round 2, when round 3 finds one, then it is deferred, kept whole, never a finding', () => {
    const round2 = [
      ...round1,
      captured(2, 'B'),
      roundRecorded(report(2, 'B', { reviewer: 'ada', candidates: [minor(2), nit(2)] })),
    ];
    const state2 = given(...round2, captured(3, 'C'))
      .whenReport(report(3, 'C', { reviewer: 'ada', candidates: [minor(3)] }))
      .accepts();
    // round 1 admitted all three; round 2 admitted the minor and deferred the nit; round 3 defers the minor
    expect(findingsInOrder(state2).map((f) => f.summary)).toEqual([
      'Missing close',
      'nit number 1',
      'minor 1',
      'minor 2',
    ]);
    expect(toArray(state2.deferred)).toEqual([
      expect.objectContaining({ id: idOf(nit(2)), round: 2, reason: 'until-round', reviewers: ['ada'] }),
      {
        id: idOf(minor(3)),
        round: 3,
        file: 'src/api.js',
        line: 3,
        section: null,
        category: 'correctness',
        severity: 'minor',
        summary: 'minor 3',
        evidence: minor(3).evidence,
        reviewers: ['ada'],
        reason: 'until-round',
      },
    ]);
    expect(findingOf(state2, idOf(minor(3)))).toBeUndefined();
    // counted by status, listed by explain and feedback under "deferred to a follow-up"
    expect(statusOf(state2).counts.deferred).toBe(2);
    expect(explain(state2).deferred.map((d) => d.summary)).toEqual(['nit number 2', 'minor 3']);
    expect(feedbackOf(state2).deferred.map((d) => d.summary)).toEqual(['nit number 2', 'minor 3']);
    // a deferred candidate does not use up the severity's allowance, and never blocks
    expect(state2.admitted).toEqual({ major: 1, nit: 1, minor: 2 });
    expect(state2.findings.openBlocking).toBe(1);
  });

  it('firstRoundOnly stays what it was: a later candidate is suppressed (late), and no log changes meaning', () => {
    const state = given(
      opened(PRESETS.default),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B'),
    )
      .whenReport(report(2, 'B', { candidates: [nit(2)], decisions: [] }))
      .accepts();
    expect(toArray(state.suppressed).map((s) => s.reason)).toEqual(['late']);
    expect(state.deferred.size).toBe(0);
  });

  it('untilRound is an integer from 1, and never beside firstRoundOnly: true', () => {
    const withRule = (rule: object) =>
      policyIsUsable({
        ...PRESETS.default,
        severities: { nit: { blocks: false, firstRoundOnly: false, maxAdmitted: null, ...rule } },
      });
    expect(withRule({ untilRound: 0 })).toMatchObject({
      left: { code: 'invalid-policy', path: ['policy', 'severities', 'nit', 'untilRound'] },
    });
    expect(withRule({ untilRound: 1.5 })).toMatchObject({ left: { code: 'invalid-policy' } });
    expect(withRule({ untilRound: 2, firstRoundOnly: true })).toMatchObject({
      left: { code: 'invalid-policy', message: expect.stringMatching(/absent when firstRoundOnly is true/) },
    });
    expect(withRule({ untilRound: 3 })).toEqual({ _tag: 'Right', right: undefined });
  });
});

describe('later rounds scoped to the fix (newOutsideFix)', () => {
  const scoped = (newOutsideFix: NonNullable<Policy['newOutsideFix']>): Policy => ({
    ...PRESETS.default,
    newOutsideFix,
  });
  const outside = candidate({ file: 'src/elsewhere.js', summary: 'new outside the fix' });
  const inside = candidate({ file: 'src/service.js', line: 40, summary: 'new inside the fix' });
  const round2 = (policy: Policy) =>
    given(
      opened(policy),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B', { touched: ['src/service.js'] }),
    ).whenReport(
      report(2, 'B', {
        candidates: [outside, inside],
        decisions: [{ id: idOf(major), status: 'fixed', evidence: 'closed on abort' }],
      }),
    );

  it('admit (the default): a new candidate outside the fix blocks like any other', () => {
    const state = round2(PRESETS.default).accepts();
    expect(findingOf(state, idOf(outside))?.blocking).toBe(true);
    expect(state.status).toBe('open');
  });

  it('advisory: it is a finding that never blocks; inside the fix it blocks', () => {
    const state = round2(scoped('advisory')).accepts();
    expect(findingOf(state, idOf(outside))?.blocking).toBe(false);
    expect(findingOf(state, idOf(inside))?.blocking).toBe(true);
  });

  it('defer: it is deferred to a follow-up (outside-fix); inside the fix it is admitted', () => {
    const state = round2(scoped('defer')).accepts();
    expect(findingOf(state, idOf(outside))).toBeUndefined();
    expect(toArray(state.deferred)).toEqual([
      expect.objectContaining({ id: idOf(outside), reason: 'outside-fix', file: 'src/elsewhere.js' }),
    ]);
    expect(findingOf(state, idOf(inside))?.blocking).toBe(true);
  });

  it('round 1 has no fix: everything it finds is admitted, whatever the policy', () => {
    const state = given(opened(scoped('defer')), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [outside] }))
      .accepts();
    expect(findingOf(state, idOf(outside))?.blocking).toBe(true);
    expect(state.deferred.size).toBe(0);
  });
});

describe('the converging preset', () => {
  it('nit in round 1 only, minor until round 2, critical and major in every round', () => {
    expect(PRESETS.converging.severities).toEqual({
      critical: { blocks: true, firstRoundOnly: false, maxAdmitted: null },
      major: { blocks: true, firstRoundOnly: false, maxAdmitted: null },
      minor: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 2 },
      nit: { blocks: false, firstRoundOnly: false, maxAdmitted: null, untilRound: 1 },
    });
    expect(policyIsUsable(PRESETS.converging)).toEqual({ _tag: 'Right', right: undefined });
    const state = given(
      opened(PRESETS.converging),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B'),
      roundRecorded(report(2, 'B', { candidates: [minor(2)] })),
      captured(3, 'C'),
    )
      .whenReport(
        report(3, 'C', { candidates: [minor(3), candidate({ file: 'src/x.js', severity: 'critical' })] }),
      )
      .accepts();
    expect(findingsInOrder(state).map((f) => f.severity)).toEqual(['major', 'minor', 'critical']);
    expect(toArray(state.deferred).map((d) => d.severity)).toEqual(['minor']);
  });
});

describe('the trend, counted as each round ends', () => {
  it('each outcome keeps what the round did: opened, decided, deferred, still open, blocking, files changed', () => {
    const after = given(
      opened(PRESETS.converging),
      captured(1, 'A', { touched: ['src/service.js', 'src/api.js'] }),
      roundRecorded(report(1, 'A', { candidates: [major, minor(1), nit(1)] })),
      captured(2, 'B', { touched: ['src/service.js'] }),
    )
      .whenReport(
        report(2, 'B', {
          candidates: [nit(2)],
          decisions: [{ id: idOf(major), status: 'fixed', evidence: 'closed on abort' }],
        }),
      )
      .accepts();
    expect(toArray(after.outcomes).map((o) => o.tally)).toEqual([
      {
        opened: 3,
        fixed: 0,
        withdrawn: 0,
        reopened: 0,
        deferred: 0,
        stillOpen: 3,
        blockingOpen: 1,
        filesChanged: 2,
      },
      {
        opened: 0,
        fixed: 1,
        withdrawn: 0,
        reopened: 0,
        deferred: 1,
        stillOpen: 2,
        blockingOpen: 0,
        filesChanged: 1,
      },
    ]);
    expect(statusOf(after).trend).toBe('converging');
  });
});
