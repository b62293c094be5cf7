import { describe, expect, it } from 'vitest';
import {
  contributionRecorded,
  type DomainEvent,
  findingOf,
  type Policy,
  PRESETS,
  roundRecorded,
} from '../../src/index.js';
import { blockedReasonOf } from '../../src/projections/views/stall.js';
import {
  candidate,
  captured,
  decision,
  disputed,
  ended,
  extended,
  idOf,
  opened,
  report,
  ruled,
} from '../support/builders.js';
import { given } from '../support/given.js';

// A major the author believes wrong, in a file nobody touches: the default policy allows no
// decision on an untouched file, so a dispute is the only way a round can rule on it.
const major = candidate();
const MAJOR = idOf(major);
const other = candidate({ file: 'src/other.js', summary: 'Off by one' });
const nitty = candidate({ file: 'src/style.js', summary: 'Prefer const', severity: 'nit' });
const REASON = 'the pool closes the handle on abort: see pool.js:88';

const round1 = (policy: Policy = PRESETS.default): DomainEvent[] => [
  opened(policy),
  captured(1, 'A'),
  roundRecorded(report(1, 'A', { candidates: [major, other, nitty] })),
];

/** Round `n` on input `in<n>`, touching only `src/other.js`, deciding the major `status`. */
const ruledRound = (n: number, status: 'open' | 'withdrawn' | 'fixed', more: DomainEvent[] = []) => [
  captured(n, `in${n}`, { touched: [other.file] }),
  ...more,
  roundRecorded(
    report(n, `in${n}`, {
      decisions: [
        decision(major, status, `round ${n}: ${status}`),
        decision(other, 'open', `round ${n}: still off by one`),
      ],
    }),
  ),
];

describe('disputes: the author answers a finding, and the next round must rule on it', () => {
  it('a dispute names the finding by a prefix, carries the round in progress, and waits on the finding', () => {
    const state = given(...round1())
      .when({ kind: 'dispute', finding: MAJOR.slice(0, 8), reason: REASON })
      .emits([disputed(2, MAJOR, REASON)]);
    expect(findingOf(state, MAJOR)?.disputes).toEqual([{ round: 2, reason: REASON, ruling: null }]);
    expect(state.disputed).toEqual([MAJOR]);
  });

  it('the same dispute again is a retry: no event; another reason is refused', () => {
    const g = given(...round1(), disputed(2, MAJOR, REASON));
    g.when({ kind: 'dispute', finding: MAJOR, reason: REASON }).emits([]);
    g.when({ kind: 'dispute', finding: MAJOR, reason: 'something else' }).rejects('duplicate-dispute');
  });

  it('an empty reason, a closed finding, an unknown one and a final run are refused', () => {
    given(...round1())
      .whenEvent(disputed(2, MAJOR, '  '))
      .rejects('empty-field');
    const closed = [
      ...round1(),
      captured(2, 'B', { touched: [major.file] }),
      roundRecorded(report(2, 'B', { decisions: [decision(major, 'fixed')] })),
    ];
    given(...closed)
      .whenEvent(disputed(3, MAJOR))
      .rejects('closed-finding', /already fixed/);
    given(...round1())
      .whenEvent(disputed(2, 'f'.repeat(64)))
      .rejects('unknown-finding');
    given(...round1())
      .whenEvent(disputed(3, MAJOR))
      .rejects('wrong-round');
    const converged = [opened(), captured(1, 'A'), roundRecorded(report(1, 'A', { candidates: [nitty] }))];
    given(...converged)
      .whenEvent(disputed(2, idOf(nitty)))
      .rejects('run-final');
  });

  it('the next round rules on it untouched: open upholds it, withdrawn accepts the dispute, fixed is still the policy’s', () => {
    const g = given(...round1(), disputed(2, MAJOR, REASON), captured(2, 'B', { touched: [other.file] }));
    const upheld = g
      .whenReport(
        report(2, 'B', {
          decisions: [decision(major, 'open', 'pool.js:88 runs only on success'), decision(other, 'open')],
        }),
      )
      .accepts();
    expect(findingOf(upheld, MAJOR)?.disputes).toEqual([
      {
        round: 2,
        reason: REASON,
        ruling: { round: 2, status: 'open', evidence: 'pool.js:88 runs only on success' },
      },
    ]);
    expect(upheld.disputed).toEqual([]);
    expect([upheld.status, upheld.stall]).toEqual(['open', null]);
    const accepted = g
      .whenReport(
        report(2, 'B', {
          decisions: [decision(major, 'withdrawn', 'right: it does'), decision(other, 'open')],
        }),
      )
      .accepts();
    expect(findingOf(accepted, MAJOR)?.status).toBe('withdrawn');
    expect(findingOf(accepted, MAJOR)?.disputes?.[0]?.ruling?.status).toBe('withdrawn');
    g.whenReport(report(2, 'B', { decisions: [decision(major, 'fixed'), decision(other, 'open')] })).rejects(
      'untouched-decision',
    );
    // an undisputed finding in an untouched file still takes no decision under the default policy
    given(...round1(), captured(2, 'B', { touched: [other.file] }))
      .whenReport(report(2, 'B', { decisions: [decision(major, 'open'), decision(other, 'open')] }))
      .rejects('untouched-decision');
  });

  it('a blocking finding upheld after two disputes blocks the run before its cap, reason disputed', () => {
    const events = [
      ...round1(),
      disputed(2, MAJOR, REASON),
      ...ruledRound(2, 'open'),
      disputed(3, MAJOR, 'still: the pool closes it'),
    ];
    const state = given(...events, captured(3, 'in3', { touched: [other.file] }))
      .whenReport(
        report(3, 'in3', { decisions: [decision(major, 'open', 'round 3: open'), decision(other, 'open')] }),
      )
      .accepts();
    expect([state.status, state.round]).toEqual(['blocked', 3]);
    expect(state.stall).toEqual({ round: 3, findings: [{ id: MAJOR, why: 'disputed' }] });
    expect(blockedReasonOf(state)).toBe('disputed');
    // a person rules, and the run converges (the other major is ruled too)
    const after = given(
      ...events,
      captured(3, 'in3', { touched: [other.file] }),
      roundRecorded(
        report(3, 'in3', { decisions: [decision(major, 'open', 'round 3: open'), decision(other, 'open')] }),
      ),
      ruled(idOf(other), 'fixed'),
    )
      .whenEvent(ruled(MAJOR, 'withdrawn', 'the author is right'))
      .accepts();
    expect([after.status, after.convergedBy?.by]).toEqual(['converged', 'Ada']);
  });

  it('an advisory finding upheld twice never blocks; blockAfter 1 blocks at the first; an extension counts afresh', () => {
    const nit = idOf(nitty);
    const nitRound = (n: number) => [
      captured(n, `in${n}`, { touched: [nitty.file, major.file, other.file] }),
      roundRecorded(
        report(n, `in${n}`, {
          decisions: [
            decision(major, 'open'),
            decision(other, 'open'),
            decision(nitty, 'open', `round ${n}`),
          ],
        }),
      ),
    ];
    const state = given(
      ...round1(),
      disputed(2, nit),
      ...nitRound(2),
      disputed(3, nit),
      ...nitRound(3),
    ).state;
    expect([state.status, state.stall]).toEqual(['open', null]);

    const once: Policy = { ...PRESETS.default, name: 'once', disputes: { allowed: true, blockAfter: 1 } };
    const blocked = given(...round1(once), disputed(2, MAJOR), ...ruledRound(2, 'open')).state;
    expect([blocked.status, blocked.stall?.findings]).toEqual(['blocked', [{ id: MAJOR, why: 'disputed' }]]);
    // extended: open again, and the next upheld dispute counts from the extension (1 of 1 again: blocks)
    const extendedRun = [...round1(once), disputed(2, MAJOR), ...ruledRound(2, 'open'), extended(1)];
    expect(given(...extendedRun).state.status).toBe('open');
    const twice: Policy = { ...once, name: 'twice', disputes: { allowed: true, blockAfter: 2 } };
    const afresh = given(
      ...round1(twice),
      disputed(2, MAJOR),
      ...ruledRound(2, 'open'),
      disputed(3, MAJOR),
      ...ruledRound(3, 'open'),
      extended(1),
      disputed(4, MAJOR),
      ...ruledRound(4, 'open'),
    ).state;
    // upheld three times in all, once since the extension: round 4 of 5 leaves the run open
    expect(findingOf(afresh, MAJOR)?.disputes?.map((d) => d.ruling?.status)).toEqual([
      'open',
      'open',
      'open',
    ]);
    expect([afresh.status, afresh.stall, afresh.round]).toEqual(['open', null, 4]);
  });

  it('a round that ends without a report leaves the dispute to the next recorded round', () => {
    const events = [...round1(), disputed(2, MAJOR), captured(2, 'B'), ended(2, 'none', 'nothing built')];
    const g = given(...events, captured(3, 'C', { touched: [other.file] }));
    expect(g.state.disputed).toEqual([MAJOR]);
    g.whenReport(report(3, 'C', { decisions: [decision(other, 'open')] })).rejects('undecided-dispute');
    const state = g
      .whenReport(
        report(3, 'C', { decisions: [decision(major, 'withdrawn', 'agreed'), decision(other, 'open')] }),
      )
      .accepts();
    expect(findingOf(state, MAJOR)?.disputes).toEqual([
      {
        round: 2,
        reason: 'the pool closes the handle',
        ruling: { round: 3, status: 'withdrawn', evidence: 'agreed' },
      },
    ]);
  });

  it('a person’s ruling answers a dispute no round ruled on', () => {
    const atCap: Policy = { ...PRESETS.default, name: 'two', maxRounds: 2 };
    const events = [
      ...round1(atCap),
      disputed(2, MAJOR, REASON),
      captured(2, 'B'),
      ended(2, 'none', 'the reviewer never answered'),
    ];
    const state = given(...events)
      .whenEvent(ruled(MAJOR, 'withdrawn', 'the pool does close it', 'Ada'))
      .accepts();
    expect(state.disputed).toEqual([]);
    expect(findingOf(state, MAJOR)?.disputes?.[0]?.ruling).toEqual({
      round: 2,
      status: 'withdrawn',
      evidence: 'the pool does close it',
      by: 'Ada',
    });
  });

  it('a merged round rules on it; a contribution need not, and an open vote upholds it', () => {
    const g = given(...round1(), disputed(2, MAJOR, REASON), captured(2, 'B', { touched: [other.file] }));
    const finder = report(2, 'B', { decisions: [decision(other, 'open', 'still off')] });
    const verifier = report(2, 'B', {
      decisions: [decision(major, 'open', 'pool.js:88 is the success path')],
    });
    const lenient = report(2, 'B', { decisions: [decision(major, 'withdrawn', 'agreed')] });
    // the finder decides nothing on the disputed finding: accepted as a contribution
    g.whenEvent(contributionRecorded(finder, 'finder')).accepts();
    given(
      ...round1(),
      disputed(2, MAJOR),
      captured(2, 'B', { touched: [other.file] }),
      contributionRecorded(finder, 'finder'),
    )
      .whenMerged()
      .rejects('undecided-dispute');
    const merged = given(
      ...round1(),
      disputed(2, MAJOR, REASON),
      captured(2, 'B', { touched: [other.file] }),
      contributionRecorded(finder, 'finder'),
      contributionRecorded(verifier, 'verifier'),
      contributionRecorded(lenient, 'lenient'),
    )
      .whenMerged()
      .accepts();
    const ruling = findingOf(merged, MAJOR)?.disputes?.[0]?.ruling;
    expect(ruling?.status).toBe('open');
    expect(ruling?.evidence).toContain('verifier (open): pool.js:88 is the success path');
    expect(ruling?.evidence).toContain('lenient (withdrawn): agreed');
  });
});
