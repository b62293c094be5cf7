import { describe, expect, it } from 'vitest';
import {
  type Candidate,
  type Decision,
  type Finding,
  fileStore,
  findingId,
  findingOf,
  findingsInOrder,
  foldRunFromStart,
  operations,
  type Policy,
  type RoundReport,
  type RunState,
  toArray,
  type Verification,
} from '../../src/index.js';
import { tempDir } from '../support/tmp.js';
import { CORPUS_POLICY, type FinderFile, identity, loadRound, rawRound, type VerifierFile } from './pr236.js';

/**
 * The real review of natejswenson/local-fitness PR #236, replayed from the RAW files: each
 * finder's `candidates-N.json` is one contribution, each verifier's `verdicts-N.json` another
 * (its rulings on candidates as `verifications`, its rulings on round-1 findings as decisions).
 * Nothing the issueflow plan or registrar made is fed in; clearance's merge does their work, and
 * the test compares what it made with `registered.json`.
 */

const r1 = loadRound('r1');
const r2 = loadRound('r2');
const raw1 = rawRound('r1');
const raw2 = rawRound('r2');
const by = 'issueflow-corpus';

const reviewers = [...raw1.finders.map((f) => f.finder), ...raw1.verifiers.map((v) => v.verifier)];

/**
 * The corpus policy (pr236.ts), with the panel: the 4 finders and 8 verifiers are expected every
 * round; a candidate the diff did not introduce is `pre-existing`; plausible is advisory outside the
 * last fix (issueflow's rule against oscillating findings; both PLAUSIBLE rulings of the corpus are
 * nits, so it never shows).
 */
const POLICY: Policy = {
  ...CORPUS_POLICY,
  name: 'issueflow-pr236-panel',
  experts: reviewers,
  plausible: 'advisory-outside-fix',
  mergeWithinLines: 0,
  preExistingSeverity: 'pre-existing',
};

const VERDICT = { CONFIRMED: 'confirmed', PLAUSIBLE: 'plausible', REFUTED: 'refuted' } as const;

/** The registrar's id for a finding, through the identity both keep: (file, category, summary). */
const registeredIds = new Map(
  [...r1.registered.findings, ...r2.registered.findings].map((f) => [identity(f), f.id]),
);
const corpusIdOf = (f: Readonly<{ file: string; category: string; summary: string }>): string =>
  registeredIds.get(identity(f)) ?? `unregistered ${f.file}: ${f.summary.slice(0, 40)}`;
/** clearance's id of a registered finding `f-…` */
const clearanceIdOf = (corpusId: string): string => {
  const f = [...r1.registered.findings, ...r2.registered.findings].find((x) => x.id === corpusId);
  if (f === undefined) throw new Error(`no registered finding ${corpusId}`);
  return findingId(f);
};

/**
 * A finder's candidates as it filed them, with its `same_as` as `sameAs`. An issueflow finder
 * grades nothing (its verifiers do), so each is offered as a plausible `nit`: the finder does not
 * claim it blocks. Were it offered as a major, a merge would rightly keep it blocking over the
 * grade a verifier gave the candidate it merged with (a merge never loses a blocking candidate),
 * and the 9 candidates the issueflow plan merged unverified in round 2 would all block.
 */
const finderReport = (
  runId: string,
  round: number,
  head: string,
  f: FinderFile,
  state: RunState | null,
): RoundReport => ({
  runId,
  round,
  inputSha: head,
  completed: true,
  candidates: f.candidates.map(
    (c): Candidate => ({
      file: c.file,
      line: c.line,
      category: c.category,
      summary: c.summary,
      severity: 'nit',
      verdict: 'plausible',
      introducedByDiff: c.introduced_by_diff,
      evidence: c.failure_scenario,
      ...((c as unknown as { same_as?: string }).same_as === undefined || state === null
        ? {}
        : { sameAs: heldAs(state, (c as unknown as { same_as: string }).same_as) }),
    }),
  ),
  decisions: [],
  notExamined: [...f.notExamined],
  reviewer: f.finder,
});

/**
 * The clearance finding a registered finding is: the one with its identity, or the one whose merge
 * absorbed it (clearance's round-1 merge folds some candidates the registrar kept apart).
 */
const heldAs = (state: RunState, corpusId: string): string => {
  const id = clearanceIdOf(corpusId);
  if (findingOf(state, id) !== undefined) return id;
  const into = findingsInOrder(state).find((f) => f.mergedFrom?.some((m) => m.id === id));
  if (into === undefined) throw new Error(`${corpusId} is no finding of the run`);
  return into.id;
};

/** A verifier's rulings: on a candidate `c-…`, by its key; on a round-1 finding `f-…`, a decision. */
const verifierReport = (
  runId: string,
  round: number,
  head: string,
  v: VerifierFile,
  filed: ReadonlyMap<string, { file: string; category: string; summary: string; line: number }>,
  state: RunState,
  placing = false,
): RoundReport => {
  const verifications: Verification[] = [];
  const decisions: Decision[] = [];
  for (const ruling of v.verdicts) {
    if (ruling.verdict === 'fixed' || ruling.verdict === 'still-open') {
      const id = heldAs(state, ruling.id);
      const status = ruling.verdict === 'fixed' ? 'fixed' : 'open';
      const twin = decisions.findIndex((d) => d.id === id);
      // two registered findings this verifier ruled on are one finding here: open if either is
      if (twin === -1) decisions.push({ id, status, evidence: ruling.note });
      else {
        const was = decisions[twin] as Decision;
        decisions[twin] = {
          id,
          status: was.status === 'open' || status === 'open' ? 'open' : status,
          evidence: `${was.evidence}\n${ruling.note}`,
        };
      }
      continue;
    }
    const c = filed.get(ruling.id);
    if (c === undefined) throw new Error(`${v.verifier} rules on ${ruling.id}, which no finder filed`);
    // the verifier's own line, where it differs from the finder's, as a correction of the place
    const { line, quote } = ruling as { line?: number; quote?: string };
    const placed = placing && ruling.verdict !== 'REFUTED' && line !== undefined && line !== c.line;
    verifications.push({
      file: c.file,
      category: c.category,
      summary: c.summary,
      verdict: VERDICT[ruling.verdict],
      evidence: ruling.note,
      ...(ruling.severity === undefined ? {} : { severity: ruling.severity }),
      ...(ruling.introduced_by_diff === undefined ? {} : { introducedByDiff: ruling.introduced_by_diff }),
      ...(placed ? { correction: { line, evidence: quote ?? ruling.note } } : {}),
    });
  }
  return {
    runId,
    round,
    inputSha: head,
    completed: true,
    candidates: [],
    decisions,
    verifications,
    reviewer: v.verifier,
  };
};

const filedIn = (raw: ReturnType<typeof rawRound>) =>
  new Map(raw.finders.flatMap((f) => f.candidates.map((c) => [c.id, c] as const)));

/** One round from the raw files: every finder, then every verifier, then `record --merge`. */
const replayRound = async (
  dir: string,
  runId: string,
  round: 1 | 2,
  raw: ReturnType<typeof rawRound>,
  before: RunState,
  placing: boolean,
): Promise<RunState> => {
  const head = (round === 1 ? r1 : r2).registered.head;
  const ctx = { store: fileStore(dir), by };
  for (const f of raw.finders)
    await operations.contribute(ctx, {
      runId,
      report: finderReport(runId, round, head, f, before),
      reviewer: f.finder,
    });
  for (const v of raw.verifiers)
    await operations.contribute(ctx, {
      runId,
      report: verifierReport(runId, round, head, v, filedIn(raw), before, placing),
      reviewer: v.verifier,
    });
  await operations.record(ctx, { runId, source: { kind: 'merge' } });
  return (await foldRunFromStart(ctx.store, runId)).state;
};

const replay = async (placing = false) => {
  const dir = await tempDir();
  const runId = 'pr236-panel';
  const head1 = r1.registered.head;
  await operations.open(
    { store: fileStore(dir), by },
    { runId, policy: POLICY, inputSha: head1, revision: { commit: head1 }, touched: [...r1.diffFiles] },
  );
  const opened = await foldRunFromStart(fileStore(dir), runId);
  const round1 = await replayRound(dir, runId, 1, raw1, opened.state, placing);
  const head2 = r2.registered.head;
  await operations.capture(
    { store: fileStore(dir), by },
    { runId, inputSha: head2, revision: { commit: head2 }, touched: [...r2.diffFiles] },
  );
  const round2 = await replayRound(dir, runId, 2, raw2, round1, placing);
  return { round1, round2 };
};

type Key = Readonly<{ file: string; category: string; summary: string }>;

const countBySeverity = (findings: ReadonlyArray<Readonly<{ severity: string }>>) => {
  const n: Record<string, number> = {};
  for (const f of findings) n[f.severity] = (n[f.severity] ?? 0) + 1;
  return n;
};

const openIn = (s: RunState): Finding[] => findingsInOrder(s).filter((f) => f.status === 'open');

/** The registrar's ids a clearance finding stands for: its own, and those its merge absorbed. */
const standsFor = (f: Finding): string[] => [
  corpusIdOf(f),
  ...(f.mergedFrom ?? []).map((m) => registeredById.get(m.id) ?? `unregistered ${m.id.slice(0, 12)}`),
];
const registeredById = new Map(
  [...r1.registered.findings, ...r2.registered.findings].map((f) => [findingId(f), f.id]),
);

/** The candidates the registrar dropped (refuted), as clearance ids. */
const droppedIds = (raw: ReturnType<typeof rawRound>, registered: typeof r1.registered) => {
  const filed = filedIn(raw);
  return (registered.transitions as unknown as { dropped: Array<{ id: string }> }).dropped
    .map((d) => findingId(filed.get(d.id) as { file: string; category: string; summary: string }))
    .sort();
};

/** Registered findings by severity; `demoted` moves a finding back to the grade its verifier gave. */
const registeredCounts = (findings: ReadonlyArray<(typeof r1.registered.findings)[number]>) =>
  countBySeverity(findings.map((f) => ({ severity: f.demoted === null ? f.severity : 'major' })));

/**
 * The registrar's fixed findings clearance keeps open: f-7ede0eb0, which finder 2 re-filed as the
 * same finding (c-2-3, `same_as`), and two that round 1 merged with a finding at their line that
 * a verifier ruled still open (fixed only if no contribution says open).
 */
const NOT_FIXED_HERE = ['f-0583160f', 'f-7ede0eb0', 'f-b9986c2f'];

describe('issueflow PR #236 from the raw finder and verifier files, as contributions', async () => {
  const { round1, round2 } = await replay();
  const reg1 = new Map(r1.registered.findings.map((f) => [f.id, f]));
  const held1 = openIn(round1);

  it('round 1: the 3 refuted candidates are dropped, with their verifier and evidence, as the registrar dropped them', () => {
    const refuted = toArray(round1.refuted);
    expect(refuted.map((r) => r.id).sort()).toEqual(droppedIds(raw1, r1.registered));
    expect(r1.registered.counts.dropped).toBe(3);
    for (const r of refuted) {
      const ruling = raw1.verifiers
        .flatMap((v) => v.verdicts.map((x) => ({ v: v.verifier, x })))
        .find(({ x }) => x.verdict === 'REFUTED' && findingId(filedIn(raw1).get(x.id) as Key) === r.id);
      expect(r.by).toEqual([ruling?.v]);
      expect(r.evidence).toBe(ruling?.x.note);
      expect(findingOf(round1, r.id)).toBeUndefined();
    }
  });

  it('round 1: every registered finding is held; 9 the registrar kept apart share a line with another finder’s candidate and are merged into it', () => {
    // clearance merges candidates of one file and line whatever their category; in round 1 the
    // issueflow plan did not (it merged nothing), in round 2 it did (see below). So round 1 holds
    // 26 findings where the registrar holds 35, and the 9 others are in a finding's mergedFrom.
    const all = held1.flatMap(standsFor);
    expect(all.sort()).toEqual([...reg1.keys()].sort());
    expect(held1).toHaveLength(26);
    const absorbed = held1.flatMap((f) => (f.mergedFrom ?? []).map((m) => ({ f, m })));
    expect(absorbed).toHaveLength(9);
    for (const { f, m } of absorbed) expect([m.file, m.line]).toEqual([f.file, f.line]);
    // the lines where several finders filed: 6 lines, 15 candidates (3 of them refuted or kept)
    expect(new Set(absorbed.map(({ f }) => `${f.file}:${f.line}`)).size).toBe(6);
  });

  it('round 1: counts by severity are the registrar’s less the merged ones, and its one demotion undone; no verified major is lost', () => {
    const absorbedRegistered = held1
      .flatMap((f) => (f.mergedFrom ?? []).map((m) => reg1.get(registeredById.get(m.id) ?? '')))
      .filter((f) => f !== undefined);
    const expected = registeredCounts(r1.registered.findings);
    for (const [sev, n] of Object.entries(registeredCounts(absorbedRegistered)))
      expected[sev] = (expected[sev] ?? 0) - n;
    expect(countBySeverity(held1)).toEqual(expected);
    expect(countBySeverity(held1)).toEqual({ major: 5, nit: 16, 'pre-existing': 5 });
    expect(r1.registered.counts).toMatchObject({ majors: 5, nits: 25, preExisting: 5 });
    // the verifiers ruled 6 majors (the registrar demoted one, f-bbf94366, to a nit); each is a
    // blocking finding here, or merged into one
    const ruledMajor = raw1.verifiers
      .flatMap((v) => v.verdicts)
      .filter((x) => x.verdict === 'CONFIRMED' && x.severity === 'major')
      .map((x) => findingId(filedIn(raw1).get(x.id) as Key));
    expect(ruledMajor).toHaveLength(6);
    const blockingHolds = new Set(
      held1.filter((f) => f.blocking).flatMap((f) => [f.id, ...(f.mergedFrom ?? []).map((m) => m.id)]),
    );
    expect(ruledMajor.filter((id) => !blockingHolds.has(id))).toEqual([]);
    expect(held1.find((f) => corpusIdOf(f) === 'f-bbf94366')?.blocking).toBe(true);
    // the candidates the diff did not introduce took the policy's pre-existing severity
    expect(
      held1
        .filter((f) => f.severity === 'pre-existing')
        .map(corpusIdOf)
        .sort(),
    ).toEqual(
      r1.registered.findings
        .filter((f) => f.severity === 'pre-existing')
        .map((f) => f.id)
        .sort(),
    );
  });

  it('round 2: ids are stable: every round-1 finding keeps its id, and the verifiers’ rulings by registrar id reach it', () => {
    for (const f of held1) expect(findingOf(round2, f.id)?.openedRound).toBe(1);
    const r2ById = new Map(r2.registered.findings.map((f) => [f.id, f]));
    for (const f of r1.registered.findings) expect(r2ById.get(f.id)?.firstRound).toBe(1);
  });

  it('round 2: the 4 refuted candidates are dropped as the registrar dropped them', () => {
    const refuted = toArray(round2.refuted).filter((r) => r.round === 2);
    expect(refuted.map((r) => r.id).sort()).toEqual(droppedIds(raw2, r2.registered));
    expect(r2.registered.counts.dropped).toBe(4);
  });

  it('round 2: the same-line rule merges exactly the 9 candidates the issueflow plan merged, into the candidates it kept', () => {
    const opened2 = findingsInOrder(round2).filter((f) => f.openedRound === 2);
    const planned = new Set(r2.planned.map((p) => p.id));
    const mergedAway = [...filedIn(raw2).entries()]
      .filter(([id]) => !planned.has(id))
      .map(([, c]) => findingId(c));
    expect(mergedAway).toHaveLength(9);
    expect(opened2.flatMap((f) => (f.mergedFrom ?? []).map((m) => m.id)).sort()).toEqual(mergedAway.sort());
    // and every finding it kept is one the registrar registered, under the id the plan kept
    const registeredNew = r2.registered.findings.filter((f) => f.firstRound === 2).map((f) => f.id);
    expect(opened2.map(corpusIdOf).every((id) => registeredNew.includes(id))).toBe(true);
    // one registered new finding is not opened here: c-2-3 says it is the same as round-1 finding
    // f-7ede0eb0, so clearance links it (sameAs) instead of opening a finding
    const c23 = filedIn(raw2).get('c-2-3') as Key;
    expect(registeredNew.filter((id) => !opened2.map(corpusIdOf).includes(id))).toEqual([corpusIdOf(c23)]);
    expect(opened2).toHaveLength(registeredNew.length - 1);
    const linked = findingOf(round2, clearanceIdOf('f-7ede0eb0'));
    expect(linked?.mergedFrom?.map((m) => m.id)).toContain(findingId(c23));
  });

  it('round 2: fixed only where no verifier says still open: 8 of the registrar’s 11, each difference explained', () => {
    const fixed = findingsInOrder(round2).filter((f) => f.status === 'fixed');
    const regFixed = r2.registered.transitions.fixed;
    expect(fixed.flatMap(standsFor).every((id) => regFixed.includes(id))).toBe(true);
    const notFixed = regFixed.filter((id) => !fixed.flatMap(standsFor).includes(id));
    // 5 findings here stand for 8 of the registrar's 11 (round 1 merged some of them)
    expect([fixed.length, fixed.flatMap(standsFor).length, regFixed.length]).toEqual([5, 8, 11]);
    expect(notFixed.sort()).toEqual(NOT_FIXED_HERE);
    const stillOpen = new Set(r2.registered.transitions.stillOpen);
    for (const id of notFixed) {
      const f = findingOf(round2, heldAs(round1, id)) as Finding;
      expect(f.status).toBe('open');
      if (id === 'f-7ede0eb0') {
        // a verifier ruled it fixed, but finder 2 filed c-2-3 as the same finding: an open voice
        expect(f.mergedFrom?.some((m) => m.reviewer === 'finder-2')).toBe(true);
      } else {
        // round 1 merged it with a registered finding that a verifier ruled still open
        expect(standsFor(f).some((other) => stillOpen.has(other))).toBe(true);
      }
    }
  });

  it('round 2: the open findings stand for the registrar’s open ones and the 3 kept open here; what blocks, and why it differs', () => {
    const open2 = openIn(round2);
    const registeredOpen = r2.registered.findings.filter((f) => f.status === 'open').map((f) => f.id);
    expect(registeredOpen).toHaveLength(r2.registered.counts.open);
    const stood = open2.flatMap(standsFor);
    // the 9 candidates the issueflow plan merged away were never registered: merged here too
    expect(stood.filter((id) => id.startsWith('unregistered'))).toHaveLength(9);
    expect(stood.filter((id) => !id.startsWith('unregistered')).sort()).toEqual(
      [...registeredOpen, ...NOT_FIXED_HERE].sort(),
    );
    expect(open2).toHaveLength(43);
    expect(countBySeverity(open2)).toEqual({ major: 4, nit: 30, 'pre-existing': 9 });
    expect(r2.registered.counts).toMatchObject({ majors: 2, nits: 36, preExisting: 9 });
    // blocking: the registrar's 2 new majors; f-bbf94366, the major it demoted to a nit; and
    // f-0583160f, a major the registrar saw fixed, which round 1 merged here with a finding at its
    // line that a verifier ruled still open
    expect(
      open2
        .filter((f) => f.blocking)
        .map(corpusIdOf)
        .sort(),
    ).toEqual(
      [
        ...r2.registered.findings
          .filter((f) => f.status === 'open' && f.severity === 'major')
          .map((f) => f.id),
        'f-bbf94366',
        'f-0583160f',
      ].sort(),
    );
    expect([round2.status, round2.round, r2.registered.verdict]).toEqual(['open', 2, 'open']);
  });
});

describe('issueflow PR #236 with the verifiers’ own lines as corrections', async () => {
  const cited = await replay();
  const placed = await replay(true);
  /** Each verifier ruling that keeps a candidate and names another line than its finder's. */
  const corrections = (raw: ReturnType<typeof rawRound>) => {
    const filed = filedIn(raw);
    return raw.verifiers.flatMap((v) =>
      v.verdicts.flatMap((x) => {
        const c = filed.get(x.id);
        const line = (x as { line?: number }).line;
        return c === undefined || x.verdict === 'REFUTED' || line === undefined || line === c.line
          ? []
          : [{ id: findingId(c), finder: c.line, verifier: line, by: v.verifier }];
      }),
    );
  };

  it('the verifiers named another line than the finder in 8 of 38 rulings of round 1 (6 that keep the candidate) and 5 of 27 in round 2 (3)', () => {
    const named = (raw: ReturnType<typeof rawRound>) => {
      const filed = filedIn(raw);
      const rulings = raw.verifiers.flatMap((v) => v.verdicts).filter((x) => filed.has(x.id));
      return [
        rulings.length,
        rulings.filter((x) => (x as { line?: number }).line !== filed.get(x.id)?.line).length,
      ];
    };
    expect([named(raw1), named(raw2)]).toEqual([
      [38, 8],
      [27, 5],
    ]);
    expect([corrections(raw1).length, corrections(raw2).length]).toEqual([6, 3]);
  });

  it('every finding opens where its verifier placed it, under the same id, the finder’s line on the record; nothing else changes', () => {
    const all = [...corrections(raw1), ...corrections(raw2)];
    const state = placed.round2;
    const moved = findingsInOrder(state).filter((f) => f.correction !== undefined);
    // 8 findings open where their verifier placed them (the issue's "8 of 38" is round 1's rulings)
    expect(moved.map((f) => [f.openedRound, f.line])).toEqual([
      [1, 428],
      [1, 513],
      [1, 1259],
      [1, 1212],
      [1, 399],
      [2, 309],
      [2, 55],
      [2, 117],
    ]);
    // the ninth correction is of a candidate merged into another finding at its line: a correction
    // moves the finding that kept its candidate, and that one kept another's
    const unplaced = all.filter((c) => !moved.some((f) => f.id === c.id));
    expect(unplaced).toHaveLength(1);
    expect(findingsInOrder(state).some((f) => f.mergedFrom?.some((m) => m.id === unplaced[0]?.id))).toBe(
      true,
    );
    for (const f of moved) {
      const c = all.find((x) => x.id === f.id);
      expect(c, `a correction for ${f.id.slice(0, 12)}`).toBeDefined();
      expect(f).toMatchObject({
        line: c?.verifier,
        cited: { file: f.file, line: c?.finder },
        correction: { by: c?.by },
      });
    }
    const plain = (s: RunState) =>
      findingsInOrder(s).map((f) => [f.id, f.file, f.status, f.severity, f.blocking, f.openedRound]);
    expect(plain(placed.round1)).toEqual(plain(cited.round1));
    expect(plain(placed.round2)).toEqual(plain(cited.round2));
    const lineOf = new Map(findingsInOrder(cited.round2).map((f) => [f.id, f.line]));
    for (const f of findingsInOrder(state))
      if (f.correction === undefined) expect(f.line).toBe(lineOf.get(f.id));
    expect([state.status, state.round]).toEqual([cited.round2.status, cited.round2.round]);
  });
});
