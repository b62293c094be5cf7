import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  contributionRecorded,
  type DomainEvent,
  explain,
  feedbackMarkdown,
  findingId,
  findingOf,
  historyOf,
  mergeContributions,
  nextMove,
  type Policy,
  PRESETS,
  type RunState,
  reportSha,
  roundRecorded,
  statusOf,
} from '../../src/index.js';
import {
  candidate,
  captured,
  decision,
  ended,
  extended,
  opened,
  report,
  ruled,
} from '../support/builders.js';
import { decideMerge, fold } from '../support/decider.js';
import { given } from '../support/given.js';

// Under the standard preset only an `issue` about a bug, a vulnerability or a regression blocks.
const leak = candidate({ category: 'bug', severity: 'issue', summary: 'Leaked handle' });
const race = candidate({
  file: 'src/other.js',
  category: 'bug',
  severity: 'issue',
  summary: 'Race on write',
});
const LEAK = findingId(leak);
const standard: Policy = PRESETS.standard;
const longer: Policy = { ...PRESETS.standard, maxRounds: 8 };

const accepted = (events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(events);
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined) throw new Error(`refused: ${refused.rejection?.message}`);
  return state;
};

/** Round `n` at input `n`, touching the leak's file, deciding it `status`. */
const round = (
  n: number,
  status: 'open' | 'fixed' | 'reopened',
  more: Partial<Parameters<typeof report>[2]> = {},
) => [
  captured(n, `in${n}`, { touched: [leak.file] }),
  roundRecorded(
    report(n, `in${n}`, { decisions: [decision(leak, status, `round ${n}: ${status}`)], ...more }),
  ),
];

describe('stalls caught before the cap (policy stallRounds)', () => {
  it('the standard preset turns them on with 2 rounds; the other presets leave them off', () => {
    expect(PRESETS.standard.stallRounds).toBe(2);
    expect('stallRounds' in PRESETS.default).toBe(false);
    expect('stallRounds' in PRESETS.issueflow).toBe(false);
  });

  it('a blocking finding decided open in 2 consecutive rounds blocks the run early, naming it', () => {
    const twice = [
      opened(standard),
      captured(1, 'in1'),
      roundRecorded(report(1, 'in1', { candidates: [leak] })),
      ...round(2, 'open'),
    ];
    const after2 = accepted(twice);
    expect(after2.status).toBe('open');
    expect(after2.stall).toBeNull();
    const stalled = given(...twice, captured(3, 'in3', { touched: [leak.file] }))
      .whenReport(report(3, 'in3', { decisions: [decision(leak, 'open', 'still leaks')] }))
      .accepts();
    expect(stalled.status).toBe('blocked');
    expect(stalled.round).toBe(3);
    expect(stalled.stall).toEqual({ round: 3, findings: [{ id: LEAK, why: 'kept-open' }] });
    // every view says stalled and names the finding
    const status = statusOf(stalled);
    expect(status.blockedReason).toBe('stalled');
    expect(status.maxRounds).toBe(4);
    const e = explain(stalled);
    expect(e.blockedReason).toBe('stalled');
    expect(e.headline).toBe(
      `blocked early at round 3 of 4: stalled, finding ${LEAK.slice(0, 12)} decided open in 2 consecutive rounds; only a person can go on`,
    );
    expect(feedbackMarkdown(stalled, 'r')).toContain(
      `The review is blocked early: it stalled at round 3 of 4: finding ${LEAK.slice(0, 12)} decided open in 2 consecutive rounds.`,
    );
    const next = nextMove(stalled);
    expect(next.action).toBe('stop');
    expect(next.why).toMatch(/stalled, finding [0-9a-f]{12} decided open in 2 consecutive rounds/);
  });

  it('a declared verdict must agree with the stall', () => {
    const twice = [
      opened(standard),
      captured(1, 'in1'),
      roundRecorded(report(1, 'in1', { candidates: [leak] })),
      ...round(2, 'open'),
      captured(3, 'in3', { touched: [leak.file] }),
    ];
    given(...twice)
      .whenReport(report(3, 'in3', { decisions: [decision(leak, 'open')], verdict: 'open' }))
      .rejects('verdict-mismatch', /findings make it blocked/);
  });

  it('a round that carries the finding undecided breaks the streak: nothing was ruled', () => {
    const state = accepted([
      opened(standard),
      captured(1, 'in1'),
      roundRecorded(report(1, 'in1', { candidates: [leak] })),
      ...round(2, 'open'),
      ended(3, 'none', 'nothing to review'),
      ...round(4, 'open'),
    ]);
    expect(state.stall).toBeNull();
    expect(state.status).toBe('blocked'); // by its cap of 4, not by a stall
    expect(statusOf(state).blockedReason).toBe('cap');
    expect(explain(state).headline).toMatch(/^blocked at round 4, the cap of 4 rounds/);
  });

  it('fixed, reopened, fixed, reopened: the second reopening stalls the run', () => {
    const events = [
      opened(longer),
      captured(1, 'in1'),
      // the race stays open in a file no round touches: carried, so it never stalls, and the run never converges
      roundRecorded(report(1, 'in1', { candidates: [leak, race] })),
      ...round(2, 'fixed'),
      ...round(3, 'reopened'),
    ];
    const once = accepted(events);
    expect(once.status).toBe('open');
    expect(findingOf(once, LEAK)?.status).toBe('open');
    expect(statusOf(once).findings.find((f) => f.id === LEAK)?.reopened).toBe(1);
    const twice = given(...events, ...round(4, 'fixed'), captured(5, 'in5', { touched: [leak.file] }))
      .whenReport(
        report(5, 'in5', { decisions: [decision(leak, 'reopened', 'the leak is back after the refactor')] }),
      )
      .accepts();
    expect(twice.status).toBe('blocked');
    expect(twice.stall).toEqual({ round: 5, findings: [{ id: LEAK, why: 'reopened-twice' }] });
    const leakNow = findingOf(twice, LEAK);
    if (leakNow === undefined) throw new Error('no leak');
    // the reopenings stay in the finding's history, each with its evidence
    expect(historyOf(twice, leakNow).map((s) => `${s.round}:${s.how}:${s.status}`)).toEqual([
      '1:opened:open',
      '2:decided:fixed',
      '3:reopened:open',
      '4:decided:fixed',
      '5:reopened:open',
    ]);
    expect(explain(twice).headline).toContain('reopened a second time (the fix is not holding)');
    expect(statusOf(twice).findings.find((f) => f.id === LEAK)).toMatchObject({ reopened: 2, roundsOpen: 3 });
    const md = feedbackMarkdown(twice, 'r');
    expect(md).toContain(
      'Reopened in round 5 (it had been fixed; reopened 2 times): the leak is back after the refactor',
    );
  });

  it('after a stall, rulings and extensions work as after the cap; an extension counts stalls afresh', () => {
    const stalledRun = [
      opened(standard),
      captured(1, 'in1'),
      roundRecorded(report(1, 'in1', { candidates: [leak] })),
      ...round(2, 'open'),
      ...round(3, 'open'),
    ];
    expect(accepted(stalledRun).status).toBe('blocked');
    // a person extends: open again, the stall lifted
    const extendedState = given(...stalledRun)
      .whenEvent(extended(2, 'one more try at the leak'))
      .accepts();
    expect(extendedState.status).toBe('open');
    expect(extendedState.stall).toBeNull();
    // one more open decision does not stall it again: only rounds after the extension count
    const base = [...stalledRun, extended(2, 'one more try at the leak'), ...round(4, 'open')];
    const after4 = accepted(base);
    expect(after4.status).toBe('open');
    const after5 = accepted([...base, ...round(5, 'open')]);
    expect(after5.status).toBe('blocked');
    expect(after5.stall?.round).toBe(5);
    // a ruling on the stalled finding converges the run, as past the cap
    const converged = given(...base, ...round(5, 'open'))
      .whenEvent(ruled(LEAK, 'withdrawn', 'accepted risk: the handle is closed by the pool', 'Ada'))
      .accepts();
    expect(converged.status).toBe('converged');
    expect(converged.convergedBy?.by).toBe('Ada');
  });

  it('a policy without stallRounds never stalls: a log pinned before stalls existed folds as it did', () => {
    const { stallRounds: _off, ...pinned } = PRESETS.standard;
    const state = accepted([
      opened(pinned as Policy),
      captured(1, 'in1'),
      roundRecorded(report(1, 'in1', { candidates: [leak] })),
      ...round(2, 'open'),
      ...round(3, 'open'),
    ]);
    expect(state.status).toBe('open');
    expect(state.stall).toBeNull();
  });
});

describe('reopening a fixed finding, on the record', () => {
  const fixedAt2 = [
    opened(PRESETS.default),
    captured(1, 'in1'),
    roundRecorded(report(1, 'in1', { candidates: [candidate(), candidate({ file: 'src/other.js' })] })),
    captured(2, 'in2', { touched: ['src/service.js'] }),
    roundRecorded(report(2, 'in2', { decisions: [decision(candidate(), 'fixed')] })),
  ];

  it('a candidate for a fixed finding is refused, and says how to reopen it', () => {
    given(...fixedAt2, captured(3, 'in3'))
      .whenReport(report(3, 'in3', { candidates: [candidate()] }))
      .rejects('existing-finding', /already exists \(fixed\).*decide it reopened, with evidence/);
  });

  it('a reopening cites new evidence: the evidence of an earlier decision, trimmed, is stale-evidence', () => {
    // the fix's own evidence, padded, in a round report and in a contribution
    given(...fixedAt2, captured(3, 'in3'))
      .whenReport(
        report(3, 'in3', { decisions: [decision(candidate(), 'reopened', '  checked at this revision\n')] }),
      )
      .rejects(
        'stale-evidence',
        /decisions\[0\] reopens finding .* with the evidence its round 2 decision gave/,
      );
    given(...fixedAt2, captured(3, 'in3'))
      .whenEvent(
        contributionRecorded(
          report(3, 'in3', { decisions: [decision(candidate(), 'reopened', 'checked at this revision')] }),
          'bob',
        ),
      )
      .rejects('stale-evidence');
    // an earlier reopening's evidence is stale too, two fixes later
    const reopenedAt3 = [
      opened({ ...PRESETS.default, maxRounds: 6 }),
      ...fixedAt2.slice(1),
      captured(3, 'in3'),
      roundRecorded(
        report(3, 'in3', { decisions: [decision(candidate(), 'reopened', 'the abort path leaks')] }),
      ),
      captured(4, 'in4', { touched: ['src/service.js'] }),
      roundRecorded(report(4, 'in4', { decisions: [decision(candidate(), 'fixed', 'closed on abort now')] })),
      captured(5, 'in5'),
    ];
    given(...reopenedAt3)
      .whenReport(
        report(5, 'in5', { decisions: [decision(candidate(), 'reopened', 'the abort path leaks')] }),
      )
      .rejects('stale-evidence', /its round 3 decision gave/);
    // new evidence reopens it
    given(...reopenedAt3)
      .whenReport(
        report(5, 'in5', {
          decisions: [decision(candidate(), 'reopened', 'the abort path leaks on retry too')],
        }),
      )
      .accepts();
  });

  it('reopened turns it open again under its own id, in any file (a fix can be undone from elsewhere)', () => {
    const after = given(...fixedAt2, captured(3, 'in3', { touched: [] }))
      .whenReport(
        report(3, 'in3', { decisions: [decision(candidate(), 'reopened', 'the abort path leaks again')] }),
      )
      .accepts();
    const f = findingOf(after, findingId(candidate()));
    expect(f?.status).toBe('open');
    expect(f?.openedRound).toBe(1);
    expect(after.status).toBe('open');
    // reopening asks nothing of the others, and a reopened finding needs a decision when its file is touched
    given(
      ...fixedAt2,
      captured(3, 'in3'),
      roundRecorded(report(3, 'in3', { decisions: [decision(candidate(), 'reopened', 'it leaks again')] })),
      captured(4, 'in4', { touched: ['src/service.js'] }),
    )
      .whenReport(report(4, 'in4'))
      .rejects('missing-decision');
  });

  it('reopening needs evidence of what changed', () => {
    given(...fixedAt2, captured(3, 'in3'))
      .whenReport(report(3, 'in3', { decisions: [decision(candidate(), 'reopened', ' ')] }))
      .rejects('empty-evidence');
  });

  it('in a merged round a reopening wins: one reviewer who shows the fix did not hold reopens it', () => {
    const state = accepted([
      ...fixedAt2,
      captured(3, 'in3'),
      contributionRecorded(
        report(3, 'in3', { decisions: [decision(candidate(), 'reopened', 'leaks again')] }),
        'ada',
      ),
      contributionRecorded(report(3, 'in3', { notExamined: ['the abort path'] }), 'bob'),
    ]);
    const d = decideMerge(state, []);
    if (E.isLeft(d)) throw new Error(d.left.message);
    expect(findingOf(d.right.state, findingId(candidate()))?.status).toBe('open');
    // the merge is total: were a reopening and a fix ever outvoting each other, the reopening wins
    const vote = (reviewer: string, status: 'fixed' | 'reopened' | 'open') => {
      const r = report(3, 'in3', {
        decisions: [decision(candidate(), status, `${reviewer} says ${status}`)],
      });
      return { round: 3, expert: reviewer, reportSha: reportSha(r), report: r };
    };
    for (const others of [['fixed'], ['open'], ['fixed', 'open']] as const) {
      const m = mergeContributions(PRESETS.default, [
        vote('ada', 'reopened'),
        ...others.map((o, i) => vote(`r${i}`, o)),
      ]);
      expect(m.report.decisions[0]?.status).toBe('reopened');
      expect(m.report.decisions[0]?.evidence).toContain('ada (reopened): ada says reopened');
    }
    // a contribution may not rule `fixed` on a finding that is fixed: the votes the merge sees never mix
    given(...fixedAt2, captured(3, 'in3'))
      .whenEvent(
        contributionRecorded(report(3, 'in3', { decisions: [decision(candidate(), 'fixed')] }), 'bob'),
      )
      .rejects('closed-finding');
    given(...fixedAt2, captured(3, 'in3'))
      .whenEvent(
        contributionRecorded(
          report(3, 'in3', { decisions: [decision(candidate({ file: 'src/other.js' }), 'reopened')] }),
          'bob',
        ),
      )
      .rejects('not-reopenable', /which is open/);
  });
});
