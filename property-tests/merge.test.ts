import * as fc from 'fast-check';
import { describe, expect } from 'vitest';
import {
  blocksFor,
  type Candidate,
  type Contribution,
  type Decision,
  findingId,
  mergeContributions,
  type Policy,
  PRESETS,
  type RoundReport,
  reportSha,
  type Verification,
} from '../src/index.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

const policy: Policy = { ...PRESETS.default, mergeWithinLines: 3 };
const FINDINGS = ['a'.repeat(64), 'b'.repeat(64)];

/** Candidates from small pools, so same ids, same lines and near lines all happen often. */
const candidateArb: fc.Arbitrary<Candidate> = fc.record({
  file: fc.constantFrom('src/a.ts', 'src/b.ts'),
  line: fc.integer({ min: 1, max: 12 }),
  category: fc.constantFrom('correctness', 'security', 'style'),
  summary: fc.constantFrom('leak', 'race', 'naming', 'off by one'),
  severity: fc.constantFrom('major', 'nit'),
  confirmed: fc.constant(true as const),
  evidence: fc.constantFrom('seen', 'reproduced'),
});

/** A candidate in either form: the seed's `confirmed: true`, or an assessment (refuted now and then). */
const assessedCandidateArb: fc.Arbitrary<Candidate> = fc
  .tuple(candidateArb, fc.constantFrom(undefined, 'confirmed', 'plausible', 'refuted'))
  .map(([c, assessment]) => {
    if (assessment === undefined) return c;
    const { confirmed: _, ...rest } = c;
    return { ...rest, verdict: assessment } as Candidate;
  });

/** A verifier's ruling on a key from the same pools, so it often names a candidate of the panel. */
const rulingArb: fc.Arbitrary<Verification> = fc.record(
  {
    file: fc.constantFrom('src/a.ts', 'src/b.ts'),
    category: fc.constantFrom('correctness', 'security', 'style'),
    summary: fc.constantFrom('leak', 'race', 'naming', 'off by one'),
    verdict: fc.constantFrom('confirmed', 'plausible', 'refuted'),
    evidence: fc.constantFrom('checked', 'reproduced', 'cannot happen'),
    severity: fc.constantFrom('major', 'nit'),
  },
  { requiredKeys: ['file', 'category', 'summary', 'verdict', 'evidence'] },
);

const decisionArb: fc.Arbitrary<Decision> = fc.record({
  id: fc.constantFrom(...FINDINGS),
  status: fc.constantFrom('fixed', 'open', 'withdrawn'),
  evidence: fc.constantFrom('checked', 'still there'),
});

const reportArb: fc.Arbitrary<RoundReport> = fc
  .record({
    // within one contribution ids are unique, as the seed's rules require
    candidates: fc.uniqueArray(candidateArb, { maxLength: 5, selector: findingId }),
    decisions: fc.uniqueArray(decisionArb, { maxLength: 2, selector: (d) => d.id }),
  })
  .map(({ candidates, decisions }) => ({
    runId: 'run-1',
    round: 2,
    inputSha: 'in',
    completed: true,
    candidates,
    decisions,
  }));

const base: RoundReport = {
  runId: 'run-1',
  round: 2,
  inputSha: 'in',
  completed: true,
  candidates: [],
  decisions: [],
};

const contribution = (reviewer: string | null, report: RoundReport): Contribution => ({
  round: 2,
  expert: reviewer,
  reportSha: reportSha(report),
  report,
});

/** Finders whose candidates carry assessments, and verifiers who rule on them. */
const verifiedPanelArb = fc
  .tuple(
    fc.uniqueArray(fc.constantFrom('ada', 'bob', 'cy'), { minLength: 1, maxLength: 3 }),
    fc.uniqueArray(fc.constantFrom('vera', 'vic'), { maxLength: 2 }),
  )
  .chain(([finders, verifiers]) =>
    fc.tuple(
      ...finders.map((e) =>
        fc
          .uniqueArray(assessedCandidateArb, { maxLength: 5, selector: findingId })
          .map((candidates) => contribution(e, { ...base, candidates })),
      ),
      ...verifiers.map((e) =>
        fc
          .array(rulingArb, { minLength: 1, maxLength: 6 })
          .map((verifications) => contribution(e, { ...base, verifications })),
      ),
    ),
  ) as fc.Arbitrary<[Contribution, ...Contribution[]]>;

const panelArb = fc
  .uniqueArray(fc.constantFrom('ada', 'bob', 'cy', 'dee'), { minLength: 1, maxLength: 4 })
  .chain((reviewers) =>
    fc.tuple(...reviewers.map((e) => reportArb.map((r) => contribution(e, r)))),
  ) as fc.Arbitrary<[Contribution, ...Contribution[]]>;

const shuffled = <T>(items: ReadonlyArray<T>, keys: ReadonlyArray<number>): T[] =>
  items
    .map((item, i) => ({ item, key: keys[i % keys.length] ?? 0, i }))
    .sort((a, b) => a.key - b.key || a.i - b.i)
    .map((x) => x.item);

describe('the merge of a round’s contributions', () => {
  property([panelArb, fc.array(fc.integer(), { minLength: 1, maxLength: 8 })], { numRuns })(
    'is independent of the order the contributions arrived in',
    (panel, keys) => {
      const reordered = shuffled(panel, keys) as [Contribution, ...Contribution[]];
      expect(mergeContributions(policy, reordered)).toEqual(mergeContributions(policy, panel));
    },
  );

  property([panelArb, fc.nat(), fc.constantFrom('eve', 'zed', 'aaron')], { numRuns })(
    'a duplicate contribution changes nothing but corroboration',
    (panel, which, newcomer) => {
      const copied = panel[which % panel.length] as Contribution;
      const before = mergeContributions(policy, panel);
      const after = mergeContributions(policy, [...panel, contribution(newcomer, copied.report)]);
      expect(after.report.candidates).toEqual(before.report.candidates);
      expect(after.report.decisions.map((d) => [d.id, d.status])).toEqual(
        before.report.decisions.map((d) => [d.id, d.status]),
      );
      for (const [id, p] of Object.entries(before.provenance)) {
        const q = after.provenance[id];
        expect(q?.mergedFrom.map((m) => m.id).sort()).toEqual(
          expect.arrayContaining(p.mergedFrom.map((m) => m.id).sort()),
        );
        expect(new Set(q?.reviewers)).toEqual(
          new Set([
            ...p.reviewers,
            ...(copied.report.candidates.some((c) => {
              const cid = findingId(c);
              return cid === id || p.mergedFrom.some((m) => m.id === cid);
            })
              ? [newcomer]
              : []),
          ]),
        );
      }
    },
  );

  property([panelArb], { numRuns })('never loses a blocking candidate', (panel) => {
    const { report, provenance } = mergeContributions(policy, panel);
    const keptBy = new Map<string, Candidate>();
    for (const kept of report.candidates) {
      const id = findingId(kept);
      keptBy.set(id, kept);
      for (const m of provenance[id]?.mergedFrom ?? []) keptBy.set(m.id, kept);
    }
    for (const c of panel.flatMap((x) => x.report.candidates)) {
      const kept = keptBy.get(findingId(c));
      expect(kept, `${c.file}:${c.line} ${c.summary} is in no merged finding`).toBeDefined();
      if (blocksFor(policy, c.severity, c.category))
        expect(blocksFor(policy, kept?.severity ?? '', kept?.category ?? '')).toBe(true);
    }
  });

  property([verifiedPanelArb, fc.array(fc.integer(), { minLength: 1, maxLength: 8 })], { numRuns })(
    'with assessments and verifiers’ rulings, is still independent of arrival order',
    (panel, keys) => {
      const reordered = shuffled(panel, keys) as [Contribution, ...Contribution[]];
      expect(mergeContributions(policy, reordered)).toEqual(mergeContributions(policy, panel));
    },
  );

  property([verifiedPanelArb, fc.nat(), fc.constantFrom('eve', 'zed', 'aaron')], { numRuns })(
    'with assessments and rulings, a duplicate contribution changes no finding, no grade and no drop',
    (panel, which, newcomer) => {
      const copied = panel[which % panel.length] as Contribution;
      const before = mergeContributions(policy, panel);
      const after = mergeContributions(policy, [...panel, contribution(newcomer, copied.report)]);
      expect(after.report.candidates).toEqual(before.report.candidates);
      expect(Object.keys(after.refuted).sort()).toEqual(Object.keys(before.refuted).sort());
    },
  );

  property([verifiedPanelArb], { numRuns })('a refuted candidate never becomes a finding', (panel) => {
    const { report, provenance, refuted } = mergeContributions(policy, panel);
    const rulings = panel.flatMap((c) => c.report.verifications ?? []);
    const verdictOf = (c: Candidate) => {
      const on = rulings.filter((r) => findingId(r) === findingId(c)).map((r) => r.verdict);
      if (on.length === 0) return c.verdict ?? 'confirmed';
      return on.includes('confirmed') ? 'confirmed' : on.includes('plausible') ? 'plausible' : 'refuted';
    };
    const all = panel.flatMap((c) => c.report.candidates);
    const live = new Set(all.filter((c) => verdictOf(c) !== 'refuted').map(findingId));
    const findings = report.candidates.filter((c) => c.verdict !== 'refuted');
    const held = new Set(
      findings.flatMap((c) => [
        findingId(c),
        ...(provenance[findingId(c)]?.mergedFrom ?? []).map((m) => m.id),
      ]),
    );
    for (const c of all.filter((x) => verdictOf(x) === 'refuted' && !live.has(findingId(x)))) {
      expect(held.has(findingId(c)), `${c.summary} was refuted but is held by a finding`).toBe(false);
      expect(refuted[findingId(c)]).toBeDefined();
      expect(report.candidates.filter((x) => findingId(x) === findingId(c))).toEqual([
        expect.objectContaining({ verdict: 'refuted' }),
      ]);
    }
    // and everything that is not refuted is held by some finding
    for (const id of live) expect(held.has(id)).toBe(true);
  });

  property([verifiedPanelArb], { numRuns })(
    'no candidate that blocks after its rulings is lost: a finding holding it blocks',
    (panel) => {
      const { report, provenance } = mergeContributions(policy, panel);
      const rulings = panel.flatMap((c) => c.report.verifications ?? []);
      const keptBy = new Map<string, Candidate>();
      for (const kept of report.candidates.filter((c) => c.verdict !== 'refuted')) {
        keptBy.set(findingId(kept), kept);
        for (const m of provenance[findingId(kept)]?.mergedFrom ?? []) keptBy.set(m.id, kept);
      }
      for (const c of panel.flatMap((x) => x.report.candidates)) {
        const on = rulings.filter((r) => findingId(r) === findingId(c));
        // unruled: its own assessment and grade. Ruled: the strongest assessment, graded by the first
        // of its rulings that blocks, else by the first that grades, else by its own severity
        const strongest = ['confirmed', 'plausible', 'refuted'].find((v) => on.some((r) => r.verdict === v));
        const winning = on.filter((r) => r.verdict === strongest && r.severity !== undefined);
        const severity =
          (winning.find((r) => blocksFor(policy, r.severity ?? '', c.category)) ?? winning[0])?.severity ??
          c.severity;
        const blocks =
          on.length === 0
            ? c.verdict !== 'refuted' && blocksFor(policy, c.severity, c.category)
            : strongest !== 'refuted' && blocksFor(policy, severity, c.category);
        if (!blocks) continue;
        const kept = keptBy.get(findingId(c));
        expect(kept, `${c.file}:${c.line} ${c.summary} is in no merged finding`).toBeDefined();
        expect(blocksFor(policy, kept?.severity ?? '', kept?.category ?? '')).toBe(true);
      }
    },
  );

  property([panelArb], { numRuns })('decides fixed or withdrawn only when no reviewer says open', (panel) => {
    const { report } = mergeContributions(policy, panel);
    for (const d of report.decisions) {
      const votes = panel.flatMap((c) => c.report.decisions.filter((x) => x.id === d.id));
      expect(d.status === 'open').toBe(votes.some((v) => v.status === 'open'));
    }
  });
});
