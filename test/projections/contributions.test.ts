import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  contributionRecorded,
  type DomainEvent,
  findingId,
  findingOf,
  findingsInOrder,
  historyOf,
  type Policy,
  PRESETS,
  type RunState,
  roundRecorded,
  statusOf,
  toArray,
} from '../../src/index.js';
import { outcomeReason } from '../../src/render/outcome-reason.js';
import { candidate, captured, decision, opened, report } from '../support/builders.js';
import { decideContribution, decideMerge, evolve, fold } from '../support/decider.js';
import { given } from '../support/given.js';

const major = candidate();
const policy = (over: Partial<Policy> = {}): Policy => ({ ...PRESETS.default, ...over });

/** Fold events that must all be accepted. */
const accepted = (events: ReadonlyArray<DomainEvent>): RunState => {
  const { state, trail } = fold(events);
  const refused = trail.find((t) => t.rejection !== null);
  if (refused !== undefined) throw new Error(`refused: ${refused.rejection?.message}`);
  return state;
};

/** Close the round from its contributions, as `record --merge` does; the events and the state after. */
const merged = (state: RunState, missing: Parameters<typeof decideMerge>[1] = []) => {
  const d = decideMerge(state, missing);
  if (E.isLeft(d)) throw new Error(`merge refused: ${d.left.code} ${d.left.message}`);
  return d.right;
};

const round1With = (p: Policy, ...contributions: Array<[string | undefined, ReadonlyArray<Candidate>]>) => [
  opened(p),
  captured(1, 'A'),
  ...contributions.map(([reviewer, candidates]) =>
    contributionRecorded(report(1, 'A', { candidates: [...candidates] }), reviewer),
  ),
];

describe('a round from several reviewers', () => {
  it('the same candidate from two reviewers is one finding corroborated by both', () => {
    const state = accepted(round1With(policy(), ['bob', [major]], ['ada', [major]]));
    const after = merged(state).state;
    const f = findingOf(after, findingId(major));
    expect(findingsInOrder(after).map((f) => f.id)).toHaveLength(1);
    expect(f?.reviewers).toEqual(['ada', 'bob']);
    expect(f?.mergedFrom).toEqual([]);
    // the panel lists each contribution in the order it was recorded: bob handed in first
    const sha = (i: number) => state.contributions[i]?.reportSha;
    expect(toArray(after.panels)).toEqual([
      {
        round: 1,
        contributors: ['ada', 'bob'],
        reports: [
          { reviewer: 'bob', reportSha: sha(0), candidates: 1, decisions: 0 },
          { reviewer: 'ada', reportSha: sha(1), candidates: 1, decisions: 0 },
        ],
        absent: [],
      },
    ]);
  });

  it('the same file and line merge whatever the category; the first contribution (by report hash) keeps its id', () => {
    const security = candidate({ category: 'security', summary: 'path traversal' });
    const events = round1With(policy(), ['zoe', [security]], ['ada', [major]]);
    const after = merged(accepted(events)).state;
    const [first, second] = events
      .filter((e) => e.type === 'contribution.recorded')
      .map((e) => e.data as { reportSha: string; expert: string; report: { candidates: Candidate[] } })
      .sort((a, b) => (a.reportSha < b.reportSha ? -1 : 1));
    const keptId = findingId(first?.report.candidates[0] as Candidate);
    const other = second?.report.candidates[0] as Candidate;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([keptId]);
    expect(findingOf(after, keptId)?.mergedFrom).toEqual([
      {
        id: findingId(other),
        reviewer: second?.expert,
        file: major.file,
        line: 10,
        category: other.category,
      },
    ]);
    // the same reports arriving the other way round make the same finding
    const swapped = merged(accepted(round1With(policy(), ['ada', [major]], ['zoe', [security]]))).state;
    expect(swapped.findings).toEqual(after.findings);
  });

  it('one category in one file merges within mergeWithinLines (default 3), not beyond', () => {
    const near = candidate({ line: 13, summary: 'handle not closed on error' });
    const far = candidate({ line: 14, summary: 'another leak' });
    expect(
      findingsInOrder(merged(accepted(round1With(policy(), ['ada', [major]], ['bob', [near]]))).state).map(
        (f) => f.id,
      ),
    ).toHaveLength(1);
    expect(
      findingsInOrder(merged(accepted(round1With(policy(), ['ada', [major]], ['bob', [far]]))).state).map(
        (f) => f.id,
      ),
    ).toHaveLength(2);
    const tight = policy({ mergeWithinLines: 0 });
    expect(
      findingsInOrder(merged(accepted(round1With(tight, ['ada', [major]], ['bob', [near]]))).state).map(
        (f) => f.id,
      ),
    ).toHaveLength(2);
  });

  it('within one contribution nothing merges, and a duplicated candidate is refused as in a round report', () => {
    const near = candidate({ line: 11, summary: 'handle not closed on error' });
    const after = merged(accepted(round1With(policy(), ['ada', [major, near]]))).state;
    expect(findingsInOrder(after).map((f) => f.id)).toHaveLength(2);
    given(opened(), captured(1, 'A'))
      .whenEvent(contributionRecorded(report(1, 'A', { candidates: [major, major] }), 'ada'))
      .rejects('duplicate-candidate');
  });

  it('a merge never turns a blocking candidate advisory: a later blocking one is kept over an earlier nit', () => {
    const nitThere = candidate({ severity: 'nit', category: 'style', summary: 'naming' });
    const after = merged(accepted(round1With(policy(), ['ada', [nitThere]], ['bob', [major]]))).state;
    expect(findingsInOrder(after).map((f) => f.id)).toEqual([findingId(major)]);
    expect(findingOf(after, findingId(major))?.blocking).toBe(true);
    expect(after.status).toBe('open');
  });

  it('a reviewer hands in once per round', () => {
    given(...round1With(policy(), ['ada', [major]]))
      .whenEvent(contributionRecorded(report(1, 'A'), 'ada'))
      .rejects('duplicate-contribution', /ada already handed in/);
  });

  it('fixed only if no reviewer says open; every vote stays in the history', () => {
    const start = accepted([
      opened(),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
    ]);
    const round2 = (votes: Array<[string, 'fixed' | 'open']>) => {
      const events: DomainEvent[] = [captured(2, 'B', { touched: [major.file] })];
      for (const [reviewer, status] of votes)
        events.push(
          contributionRecorded(
            report(2, 'B', { decisions: [decision(major, status, `${reviewer} looked`)] }),
            reviewer,
          ),
        );
      let state = start;
      for (const e of events) state = (evolve(state, e) as E.Right<RunState>).right;
      return merged(state).state;
    };
    const split = round2([
      ['ada', 'fixed'],
      ['bob', 'open'],
    ]);
    const f = findingOf(split, findingId(major));
    expect(f?.status).toBe('open');
    const step = historyOf(split, f as NonNullable<typeof f>).at(-1);
    expect(step?.evidence).toBe('ada (fixed): ada looked\nbob (open): bob looked');
    expect(
      round2([
        ['ada', 'fixed'],
        ['bob', 'fixed'],
      ]).status,
    ).toBe('converged');
  });

  it('every open finding of a touched file needs one decision across the round, not one per reviewer', () => {
    const start = [
      opened(),
      captured(1, 'A'),
      roundRecorded(report(1, 'A', { candidates: [major] })),
      captured(2, 'B', { touched: [major.file] }),
    ];
    const state = accepted([
      ...start,
      contributionRecorded(report(2, 'B', { decisions: [decision(major, 'fixed')] }), 'ada'),
      contributionRecorded(report(2, 'B'), 'bob'),
    ]);
    expect(merged(state).state.status).toBe('converged');
    const silent = accepted([
      ...start,
      contributionRecorded(report(2, 'B'), 'ada'),
      contributionRecorded(report(2, 'B'), 'bob'),
    ]);
    const refused = decideMerge(silent);
    expect(E.isLeft(refused) && refused.left.code).toBe('missing-decision');
  });

  it('evolve refuses a stored round that is not the merge of its contributions', () => {
    const events = round1With(
      policy(),
      ['ada', [major]],
      ['bob', [candidate({ file: 'src/db.js', summary: 'x' })]],
    );
    given(...events)
      .whenEvent(roundRecorded(report(1, 'A', { candidates: [major] })))
      .rejects('merge-mismatch');
  });

  it('one anonymous contribution merges to its own report: the single-report round, unchanged', () => {
    const r = report(1, 'A', { candidates: [major] });
    const state = accepted([opened(), captured(1, 'A'), contributionRecorded(r)]);
    const { events, state: after } = merged(state);
    expect(events).toEqual([roundRecorded(r)]);
    const plain = accepted([opened(), captured(1, 'A'), roundRecorded(r)]);
    expect(findingOf(after, findingId(major))?.status).toBe(findingOf(plain, findingId(major))?.status);
    expect(findingOf(after, findingId(major))?.reviewers).toEqual(['anonymous']);
  });
});

describe('absent reviewers', () => {
  const panel = policy({ experts: ['ada', 'bob', 'cy'], maxRounds: 2 });

  it('an expected reviewer who handed in nothing is absent: the round is partial, never converges, and at the cap it is blocked', () => {
    const state = accepted(round1With(panel, ['ada', []], ['bob', []]));
    const r1 = merged(state);
    expect(r1.events.map((e) => e.type)).toEqual(['contribution.absent', 'round.recorded']);
    expect(r1.state.status).toBe('open');
    const outcome = toArray(r1.state.outcomes).at(-1);
    expect(outcome).toEqual({
      round: 1,
      result: 'partial',
      reason: null,
      absent: [{ expert: 'cy', reason: 'missing' }],
      reportSha: expect.any(String),
      tally: expect.objectContaining({ opened: 0, stillOpen: 0 }),
    });
    expect(outcome && outcomeReason(outcome)).toBe('absent: cy (missing)');
    expect(toArray(r1.state.panels)[0]?.absent).toEqual([
      { expert: 'cy', reason: 'missing', detail: 'handed in no report before the round was closed' },
    ]);
    let s2 = (evolve(r1.state, captured(2, 'B')) as E.Right<RunState>).right;
    for (const who of ['ada', 'bob'])
      s2 = (evolve(s2, contributionRecorded(report(2, 'B'), who)) as E.Right<RunState>).right;
    const r2 = merged(s2, [{ reviewer: 'cy', reason: 'malformed', detail: 'not JSON' }]);
    expect(r2.state.status).toBe('blocked');
    expect(statusOf(r2.state).status).toBe('blocked');
  });

  it('a round with an absent reviewer cannot be recorded complete, and an expected reviewer cannot be skipped', () => {
    const events = round1With(panel, ['ada', []], ['bob', []]);
    const state = accepted(events);
    const merge = merged(state).events.at(-1) as DomainEvent & { type: 'round.recorded' };
    given(...events)
      .whenEvent({ ...merge, data: { ...merge.data, result: 'complete' } })
      .rejects('expert-unaccounted', /expects cy/);
    given(...events, {
      type: 'contribution.absent',
      data: {
        round: 1,
        inputSha: report(1, 'A').inputSha,
        expert: 'cy',
        reason: 'missing',
        detail: 'timed out',
      },
    })
      .whenEvent({ ...merge, data: { ...merge.data, result: 'complete' } })
      .rejects('absent-reviewer', /cy: missing/);
  });

  it('what was handed in for a round that ends without a report is dropped with it, and cannot be offered again', () => {
    const ada = report(1, 'A', { candidates: [major] });
    const ended: DomainEvent = {
      type: 'round.ended',
      data: { round: 1, result: 'none', reason: 'the build broke' },
    };
    const state = accepted([...round1With(policy(), ['ada', [major]]), ended]);
    expect(state.contributions).toEqual([]);
    expect(state.absent).toEqual([]);
    expect(statusOf(state).contributions.reports).toEqual([]);
    const retried = decideContribution(state, ada, 'ada');
    expect(E.isLeft(retried) && retried.left.code).toBe('wrong-round');
  });
});
