import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  contributionRecorded,
  type DomainEvent,
  findingOf,
  findingsInOrder,
  PRESETS,
  roundRecorded,
  toArray,
} from '../../src/index.js';
import { candidate, captured, decision, idOf, opened, report } from '../support/builders.js';
import { decideMerge, fold } from '../support/decider.js';
import { given } from '../support/given.js';

// ThrillhouseBot#711: a false positive a verifier rejected comes back, word for word, on a file
// nobody touched since. It must stay refuted: kept on the record, never admitted as new.
const ghost = candidate({
  file: 'src/cache.js',
  line: 7,
  summary: 'Cache entries never expire',
  evidence: 'entries from yesterday are served after the TTL',
  confirmed: undefined,
  verdict: 'confirmed',
});
const GHOST = idOf(ghost);
const REFUTATION = 'the TTL sweep in cache.js:40 drops them every minute';
const real = candidate();

/** Round 1 merged from a finder (the ghost and a real major) and a verifier who refutes the ghost. */
const round1: DomainEvent[] = [
  opened(),
  captured(1, 'A'),
  contributionRecorded(report(1, 'A', { candidates: [ghost, real] }), 'finder'),
  contributionRecorded(
    report(1, 'A', {
      verifications: [
        {
          file: ghost.file,
          category: ghost.category,
          summary: ghost.summary,
          verdict: 'refuted',
          evidence: REFUTATION,
        },
      ],
    }),
    'verifier',
  ),
];

const afterRound1 = () => {
  const g = given(...round1);
  const state = g.whenMerged().accepts();
  expect(toArray(state.refuted).map((r) => [r.id, r.round, r.before])).toEqual([[GHOST, 1, undefined]]);
  return state;
};

/** The events of round 1 as the log holds them: the contributions and their merge. */
const round1Events = (): DomainEvent[] => {
  const merged = decideMerge(fold(round1).state);
  if (E.isLeft(merged)) throw new Error(merged.left.message);
  return [...round1, ...merged.right.events];
};

const again = (over: Partial<Candidate> = {}): Candidate => ({ ...ghost, ...over });

describe('a refuted finding stays refuted on unchanged code', () => {
  it('round 1 refutes the ghost and admits the real major', () => {
    const state = afterRound1();
    expect(findingsInOrder(state).map((f) => f.id)).toEqual([idOf(real)]);
  });

  it('offered again word for word on an untouched file: kept as refuted before, naming round 1 and its evidence', () => {
    const g = given(...round1Events(), captured(2, 'B', { touched: [real.file] }));
    const state = g
      .whenReport(
        report(2, 'B', { candidates: [again()], decisions: [decision(real, 'open')], reviewer: 'finder' }),
      )
      .accepts();
    expect(findingOf(state, GHOST)).toBeUndefined();
    expect(state.findings.openBlocking).toBe(1);
    const kept = toArray(state.refuted).at(-1);
    expect(kept).toMatchObject({
      id: GHOST,
      round: 2,
      by: ['finder'],
      evidence: REFUTATION,
      claim: ghost.evidence,
      before: { round: 1, how: 'refuted' },
    });
    // whitespace around the same words is the same evidence
    expect(
      findingOf(
        g
          .whenReport(
            report(2, 'B', {
              candidates: [again({ evidence: `  ${ghost.evidence}\n` })],
              decisions: [decision(real, 'open')],
            }),
          )
          .accepts(),
        GHOST,
      ),
    ).toBeUndefined();
  });

  it('offered again a round later still names the refutation of round 1', () => {
    const state = given(
      ...round1Events(),
      captured(2, 'B', { touched: [real.file] }),
      roundRecorded(report(2, 'B', { candidates: [again()], decisions: [decision(real, 'open')] })),
      captured(3, 'C', { touched: [real.file] }),
    )
      .whenReport(report(3, 'C', { candidates: [again()], decisions: [decision(real, 'open')] }))
      .accepts();
    expect(toArray(state.refuted).map((r) => [r.round, r.before])).toEqual([
      [1, undefined],
      [2, { round: 1, how: 'refuted' }],
      [3, { round: 1, how: 'refuted' }],
    ]);
  });

  it('with new evidence, or on a file touched since, it is admitted as any candidate is', () => {
    const g = given(...round1Events(), captured(2, 'B', { touched: [real.file] }));
    const fresh = g
      .whenReport(
        report(2, 'B', {
          candidates: [again({ evidence: 'the sweep never runs when the clock goes backwards' })],
          decisions: [decision(real, 'open')],
        }),
      )
      .accepts();
    expect(findingOf(fresh, GHOST)?.status).toBe('open');
    // touched by this round's capture
    const touchedNow = given(...round1Events(), captured(2, 'B', { touched: [real.file, ghost.file] }))
      .whenReport(report(2, 'B', { candidates: [again()], decisions: [decision(real, 'open')] }))
      .accepts();
    expect(findingOf(touchedNow, GHOST)?.status).toBe('open');
    // touched by round 2's capture, offered in round 3: changed since round 1
    const touchedSince = given(
      ...round1Events(),
      captured(2, 'B', { touched: [real.file, ghost.file] }),
      roundRecorded(report(2, 'B', { decisions: [decision(real, 'open')] })),
      captured(3, 'C', { touched: [real.file] }),
    )
      .whenReport(report(3, 'C', { candidates: [again()], decisions: [decision(real, 'open')] }))
      .accepts();
    expect(findingOf(touchedSince, GHOST)?.openedRound).toBe(3);
  });

  it('refuted by its own report in a single-report round: the same', () => {
    const state = given(
      opened(),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [again({ verdict: 'refuted' }), real] })),
      captured(2, 'B', { touched: [real.file] }),
    )
      .whenReport(report(2, 'B', { candidates: [again()], decisions: [decision(real, 'open')] }))
      .accepts();
    expect(findingOf(state, GHOST)).toBeUndefined();
    expect(toArray(state.refuted).at(-1)?.before).toEqual({ round: 1, how: 'refuted' });
  });

  it('a withdrawn finding offered again on unchanged code is kept as refuted before, not refused', () => {
    const keeper = { ...real, file: 'src/other.js', summary: 'Off by one', severity: 'high' };
    const cite = (cs: ReadonlyArray<Candidate>) => ({
      citations: cs.map((c, i) => ({ candidate: i, citation: `${c.file}:${c.line}`, resolved: true })),
    });
    const r1 = [{ ...real, severity: 'high' }, keeper];
    const withdrawn = [
      opened(PRESETS.issueflow),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: r1 }), cite(r1)),
      captured(2, 'B', { touched: [real.file] }),
      roundRecorded(
        report(2, 'B', {
          decisions: [decision(real, 'withdrawn', 'the caller closes it')],
          notExamined: ['x'],
        }),
      ),
      captured(3, 'C', { touched: ['src/elsewhere.js'] }),
    ];
    const offered = { ...real, severity: 'high' };
    const cited = cite([offered]);
    const state = given(...withdrawn)
      .whenReport(report(3, 'C', { candidates: [offered] }), cited)
      .accepts();
    expect(findingOf(state, idOf(real))?.status).toBe('withdrawn');
    expect(toArray(state.refuted).at(-1)).toMatchObject({
      id: idOf(real),
      round: 3,
      evidence: 'the caller closes it',
      claim: real.evidence,
      before: { round: 2, how: 'withdrawn' },
    });
    // with new evidence it is the finding that exists, as always
    given(...withdrawn)
      .whenReport(report(3, 'C', { candidates: [{ ...offered, evidence: 'a new path leaks it' }] }), cited)
      .rejects('existing-finding');
  });

  it('in a merged round the repetition stays out of every group: a live candidate beside it is a finding of its own', () => {
    // round 2 from two reviewers: one offers the ghost again word for word, the other a live
    // candidate of its category two lines away, which the merge would otherwise fold into it
    const near = candidate({
      file: ghost.file,
      line: 9,
      category: ghost.category,
      summary: 'Expiry is computed in local time',
      evidence: 'a run across midnight serves stale entries',
    });
    const start = [
      ...round1Events(),
      captured(2, 'B', { touched: [real.file] }),
      contributionRecorded(
        report(2, 'B', { candidates: [again()], decisions: [decision(real, 'open')] }),
        'bob',
      ),
      contributionRecorded(report(2, 'B', { candidates: [near], decisions: [decision(real, 'open')] }), 'cy'),
    ];
    const state = given(...start)
      .whenMerged()
      .accepts();
    expect(findingOf(state, GHOST)).toBeUndefined();
    expect(findingOf(state, idOf(near))).toMatchObject({ status: 'open', mergedFrom: [] });
    expect(toArray(state.refuted).at(-1)).toMatchObject({
      id: GHOST,
      by: ['bob'],
      before: { round: 1, how: 'refuted' },
    });
    // within one round the merge is what it was: a candidate and its refutation in the same round
    // are decided by the strongest verdict, and nothing earlier is repeated
    expect(afterRound1().refuted.size).toBe(1);
  });
});
