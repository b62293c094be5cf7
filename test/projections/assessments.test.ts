import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  contributionRecorded,
  type DomainEvent,
  findingId,
  findingOf,
  findingsInOrder,
  type Policy,
  PRESETS,
  type RunState,
  roundRecorded,
  type SeverityRule,
  toArray,
  type Verification,
} from '../../src/index.js';
import { candidate, captured, decision, opened, report } from '../support/builders.js';
import { decideMerge, fold } from '../support/decider.js';
import { given } from '../support/given.js';

const advisory: SeverityRule = { blocks: false, firstRoundOnly: false, maxAdmitted: null };
const policy = (over: Partial<Policy> = {}): Policy => ({
  ...PRESETS.default,
  severities: { ...PRESETS.default.severities, 'pre-existing': advisory },
  ...over,
});

/** A finder's candidate in the verifier form: no `confirmed`, an assessment. */
const offered = (over: Partial<Candidate> = {}): Candidate => {
  const { confirmed: _, ...c } = candidate(over);
  return { verdict: 'plausible', ...c, ...over };
};

const ruling = (c: Candidate, over: Partial<Verification> = {}): Verification => ({
  file: c.file,
  category: c.category,
  summary: c.summary,
  verdict: 'confirmed',
  evidence: 'reproduced it',
  ...over,
});

const accepted = (events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(events);
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined) throw new Error(`refused: ${refused.rejection?.message}`);
  return state;
};

const closeByMerge = (state: RunState) => {
  const d = decideMerge(state);
  if (E.isLeft(d)) throw new Error(`merge refused: ${d.left.code} ${d.left.message}`);
  return d.right;
};

const leak = offered({ summary: 'Socket leaks on abort', severity: 'nit' });
const race = offered({ file: 'src/cache.js', line: 5, summary: 'Race on refresh', severity: 'major' });

/** Round 1: a finder hands in `candidates`, a verifier rules on them. */
const verified = (p: Policy, candidates: Candidate[], rulings: Verification[]) => [
  opened(p),
  captured(1, 'A'),
  contributionRecorded(report(1, 'A', { candidates }), 'finder'),
  contributionRecorded(report(1, 'A', { verifications: rulings }), 'verifier'),
];

describe('a candidate carries confirmed: true or an assessment', () => {
  it('neither, or both, is refused as unconfirmed', () => {
    const { verdict: _, ...neither } = offered();
    given(opened(), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [neither] }))
      .rejects('unconfirmed', /confirmed: true, or a verifier's assessment in verdict/);
    given(opened(), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [{ ...candidate(), verdict: 'confirmed' }] }))
      .rejects('unconfirmed', /not both/);
  });

  it('a refuted candidate in a report is never a finding; it is kept on the record with its evidence', () => {
    const refuted = offered({ verdict: 'refuted', evidence: 'the close happens in finally' });
    const after = given(opened(), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [refuted], reviewer: 'ada' }))
      .accepts();
    expect(findingsInOrder(after)).toEqual([]);
    // it blocks nothing: the round converges
    expect(after.status).toBe('converged');
    expect(toArray(after.refuted)).toEqual([
      expect.objectContaining({
        id: findingId(refuted),
        round: 1,
        by: ['ada'],
        evidence: 'the close happens in finally',
      }),
    ]);
  });

  it('plausible counts like confirmed and blocks by its severity (the default)', () => {
    const after = given(opened(policy()), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [offered()] }))
      .accepts();
    expect(findingOf(after, findingId(offered()))).toMatchObject({ blocking: true, verdict: 'plausible' });
  });

  it('plausible: "advisory" never blocks; a confirmed assessment still does', () => {
    const confirmed = offered({ line: 50, summary: 'other', verdict: 'confirmed' });
    const after = given(opened(policy({ plausible: 'advisory' })), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [offered(), confirmed] }))
      .accepts();
    expect(findingOf(after, findingId(offered()))?.blocking).toBe(false);
    expect(findingOf(after, findingId(confirmed))?.blocking).toBe(true);
  });

  it('plausible: "advisory-outside-fix" blocks in round 1, and from round 2 only in a file the fix touched', () => {
    const p = policy({ plausible: 'advisory-outside-fix' });
    const r1 = given(opened(p), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [offered()] }))
      .accepts();
    expect(findingOf(r1, findingId(offered()))?.blocking).toBe(true);
    const inFix = offered({ line: 30, summary: 'second leak' });
    const outside = offered({ file: 'src/other.js', summary: 'unrelated' });
    const held = candidate({ file: 'src/held.js', summary: 'keeps the run open' });
    const r2 = given(
      opened(p),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [held] })),
      captured(2, 'B', { touched: ['src/service.js'] }),
    )
      .whenReport(report(2, 'B', { candidates: [inFix, outside] }))
      .accepts();
    expect(findingOf(r2, findingId(inFix))?.blocking).toBe(true);
    expect(findingOf(r2, findingId(outside))?.blocking).toBe(false);
  });

  it('introducedByDiff: false takes the policy’s non-blocking pre-existing severity', () => {
    const old = offered({ verdict: 'confirmed', introducedByDiff: false });
    const after = given(opened(policy()), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [old] }))
      .accepts();
    expect(findingOf(after, findingId(old))).toMatchObject({ severity: 'pre-existing', blocking: false });
    // a policy with no pre-existing severity re-grades nothing: the candidate keeps its severity
    const kept = given(opened(PRESETS.default), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [old] }))
      .accepts();
    expect(findingOf(kept, findingId(old))).toMatchObject({ severity: 'major', blocking: true });
  });

  it('a policy whose preExistingSeverity blocks, or is unknown, is refused', () => {
    given()
      .whenEvent(opened(policy({ preExistingSeverity: 'major' })))
      .rejects(
        'invalid-policy',
        /preExistingSeverity "major" must be a severity of the policy that does not block \(it blocks\)/,
      );
    given()
      .whenEvent(opened(policy({ preExistingSeverity: 'old' })))
      .rejects('invalid-policy', /known: major, nit, pre-existing/);
  });
});

describe('a verifier rules on other contributions’ candidates', () => {
  it('a refuted ruling drops the candidate: never a finding, on the record with the verifier and the evidence', () => {
    const state = accepted(
      verified(policy(), [leak, race], [ruling(race, { verdict: 'refuted', evidence: 'a lock guards it' })]),
    );
    const after = closeByMerge(state).state;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([findingId(leak)]);
    expect(toArray(after.refuted)).toEqual([
      expect.objectContaining({ id: findingId(race), by: ['verifier'], evidence: 'a lock guards it' }),
    ]);
    const { trail } = fold([
      ...verified(
        policy(),
        [leak, race],
        [ruling(race, { verdict: 'refuted', evidence: 'a lock guards it' })],
      ),
      ...closeByMerge(state).events,
    ]);
    expect(trail.at(-1)?.refuted.map((r) => r.id)).toEqual([findingId(race)]);
  });

  it('a ruling re-grades: its assessment and severity replace the finder’s, and its introducedByDiff re-grades to pre-existing', () => {
    const state = accepted(
      verified(
        policy(),
        [leak, race],
        [
          ruling(leak, { severity: 'major' }),
          ruling(race, { verdict: 'confirmed', introducedByDiff: false }),
        ],
      ),
    );
    const after = closeByMerge(state).state;
    expect(findingOf(after, findingId(leak))).toMatchObject({
      severity: 'major',
      blocking: true,
      verdict: 'confirmed',
    });
    expect(findingOf(after, findingId(race))).toMatchObject({ severity: 'pre-existing', blocking: false });
  });

  it('of several rulings the strongest wins: one verifier confirming keeps a finding another refuted', () => {
    const state = accepted([
      ...verified(policy(), [race], [ruling(race, { verdict: 'refuted', evidence: 'no' })]),
      contributionRecorded(
        report(1, 'A', { verifications: [ruling(race, { verdict: 'confirmed' })] }),
        'second',
      ),
    ]);
    const after = closeByMerge(state).state;
    expect(findingOf(after, findingId(race))?.blocking).toBe(true);
    expect(toArray(after.refuted)).toEqual([]);
  });

  it('a same-line duplicate nobody verified merges into the verified candidate, which keeps its id and grade', () => {
    const dup = offered({ category: 'security', summary: 'fd exhaustion', severity: 'nit' });
    const state = accepted([
      ...verified(policy(), [leak], [ruling(leak, { severity: 'nit' })]),
      contributionRecorded(report(1, 'A', { candidates: [dup] }), 'finder-2'),
    ]);
    const after = closeByMerge(state).state;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([findingId(leak)]);
    expect(findingOf(after, findingId(leak))).toMatchObject({ severity: 'nit', verdict: 'confirmed' });
    expect(findingOf(after, findingId(leak))?.mergedFrom?.map((m) => m.id)).toEqual([findingId(dup)]);
  });

  it('but a merge never loses a blocking candidate: an unverified major at the line is kept over a verified nit', () => {
    const dup = offered({ category: 'security', summary: 'fd exhaustion', severity: 'major' });
    const state = accepted([
      ...verified(policy(), [leak], [ruling(leak, { severity: 'nit' })]),
      contributionRecorded(report(1, 'A', { candidates: [dup] }), 'finder-2'),
    ]);
    const after = closeByMerge(state).state;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([findingId(dup)]);
    expect(findingOf(after, findingId(dup))).toMatchObject({ blocking: true, verdict: 'plausible' });
  });

  it('a refuted candidate never absorbs a live one at its line: the live one stays a finding', () => {
    const dup = offered({ category: 'security', summary: 'fd exhaustion', severity: 'major' });
    const state = accepted([
      ...verified(policy(), [leak], [ruling(leak, { verdict: 'refuted' })]),
      contributionRecorded(report(1, 'A', { candidates: [dup] }), 'finder-2'),
    ]);
    const after = closeByMerge(state).state;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([findingId(dup)]);
    expect(toArray(after.refuted).map((r) => r.id)).toEqual([findingId(leak)]);
  });

  it('a stored merged round that ignores a refutation is refused (merge-mismatch), the state untouched', () => {
    const state = accepted(verified(policy(), [race], [ruling(race, { verdict: 'refuted' })]));
    const unrefuted = report(1, 'A', { candidates: [race], reviewer: 'finder, verifier' });
    given(...verified(policy(), [race], [ruling(race, { verdict: 'refuted' })]))
      .whenEvent(roundRecorded(unrefuted))
      .rejects('merge-mismatch');
    expect(findingsInOrder(closeByMerge(state).state)).toEqual([]);
  });

  it('a ruling must name a candidate handed in for the round, grade with a known severity and give evidence', () => {
    const start = [
      opened(policy()),
      captured(1, 'A'),
      contributionRecorded(report(1, 'A', { candidates: [leak] }), 'finder'),
    ];
    given(...start)
      .whenEvent(contributionRecorded(report(1, 'A', { verifications: [ruling(race)] }), 'verifier'))
      .rejects('unknown-finding', /no contribution of round 1 has handed in/);
    given(...start)
      .whenEvent(
        contributionRecorded(
          report(1, 'A', { verifications: [ruling(leak, { severity: 'huge' })] }),
          'verifier',
        ),
      )
      .rejects('unknown-severity', /verifications\[0\]\.severity "huge"/);
    given(...start)
      .whenEvent(
        contributionRecorded(
          report(1, 'A', { verifications: [ruling(leak, { evidence: ' ' })] }),
          'verifier',
        ),
      )
      .rejects('empty-evidence', /verifications\[0\]\.evidence is empty/);
  });

  it('verifications in a round report (no contributions) are refused: they belong in a contribution', () => {
    given(opened(policy()), captured(1, 'A'))
      .whenReport(report(1, 'A', { candidates: [leak], verifications: [ruling(leak)] }))
      .rejects('invalid-report', /belong in a contribution/);
  });
});

describe('sameAs links a candidate to an existing finding instead of opening one', () => {
  const held = candidate({ file: 'src/held.js', summary: 'keeps the run open' });
  const start = [
    opened(policy()),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { candidates: [candidate(), held] })),
  ];
  const id = findingId(candidate());
  const again = offered({ summary: 'Still leaks the handle', verdict: 'confirmed', sameAs: id.slice(0, 10) });

  it('by a unique prefix: nothing opens, the finding lists the candidate and its reviewer', () => {
    const after = given(...start, captured(2, 'B', { touched: ['src/service.js'] }))
      .whenReport(
        report(2, 'B', {
          candidates: [again],
          decisions: [decision(candidate(), 'open', 'still there')],
          reviewer: 'bob',
        }),
      )
      .accepts();
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([id, findingId(held)]);
    expect(findingOf(after, id)?.mergedFrom).toEqual([
      { id: findingId(again), reviewer: 'bob', file: again.file, line: again.line, category: again.category },
    ]);
    expect(findingOf(after, id)?.reviewers).toEqual(['bob']);
  });

  it('to a finding this round decides fixed, to a closed finding, or to no finding, is refused', () => {
    given(...start, captured(2, 'B', { touched: ['src/service.js'] }))
      .whenReport(
        report(2, 'B', { candidates: [again], decisions: [decision(candidate(), 'fixed', 'closed now')] }),
      )
      .rejects('closed-finding', /which this round decides fixed/);
    given(
      ...start,
      captured(2, 'B', { touched: ['src/service.js'] }),
      roundRecorded(report(2, 'B', { decisions: [decision(candidate(), 'fixed', 'closed')] })),
      captured(3, 'C'),
    )
      .whenReport(report(3, 'C', { candidates: [again] }))
      .rejects('closed-finding', /only corroborate an open finding/);
    given(...start, captured(2, 'B'))
      .whenReport(report(2, 'B', { candidates: [{ ...again, sameAs: 'f'.repeat(12) }] }))
      .rejects('unknown-finding', /candidates\[0\]\.sameAs/);
  });

  it('in a merge, a reviewer’s sameAs is an open voice where another decided the finding fixed', () => {
    let state = accepted([...start, captured(2, 'B', { touched: ['src/service.js'] })]);
    for (const e of [
      contributionRecorded(report(2, 'B', { decisions: [decision(candidate(), 'fixed', 'gone')] }), 'ada'),
      contributionRecorded(report(2, 'B', { candidates: [{ ...again, sameAs: id }] }), 'bob'),
    ])
      state = fold([e], { state, trail: [] }).state;
    const after = closeByMerge(state).state;
    expect(findingOf(after, id)?.status).toBe('open');
    expect(findingOf(after, id)?.reviewers).toEqual(['bob']);
  });
});
