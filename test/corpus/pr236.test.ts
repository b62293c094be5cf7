import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  type Decision,
  type Finding,
  fileStore,
  findingId,
  findingOf,
  findingsInOrder,
  foldRunFromStart,
  openBlockingFindings,
  openFindings,
  operations,
  type RoundReport,
  type RunState,
  runPaths,
  toArray,
} from '../../src/index.js';
import { tempDir } from '../support/tmp.js';
import {
  CORPUS_POLICY,
  type CorpusRound,
  confirmedCandidates,
  identity,
  loadRound,
  rulings,
} from './pr236.js';

/**
 * Replays the real review of natejswenson/local-fitness PR #236 (two rounds, 4 finders and 8
 * verifiers each) through clearance, and compares clearance's fold with what the issueflow
 * registrar recorded. Where the two models differ, the test says so and asserts the difference.
 */

const r1 = loadRound('r1');
const r2 = loadRound('r2');
const by = 'issueflow-corpus';

/** The registrar's id for a clearance finding, through the identity both keep: (file, category, summary). */
const corpusIds = new Map(
  [...r1.registered.findings, ...r2.registered.findings].map((f) => [identity(f), f.id]),
);
const corpusIdOf = (f: Finding): string => {
  const id = corpusIds.get(identity(f));
  if (id === undefined) throw new Error(`no registered finding for ${f.file}: ${f.summary}`);
  return id;
};

const round1Report = (runId: string): RoundReport => ({
  runId,
  round: 1,
  inputSha: r1.registered.head,
  completed: true,
  candidates: confirmedCandidates(r1),
  decisions: [],
  notExamined: r1.registered.notExamined,
  reviewer: 'issueflow: 4 finders, 8 verifiers',
});

/** Record `report` through the operation, and the run's state after it, read from every line. */
const recordRound = async (dir: string, runId: string, report: RoundReport): Promise<RunState> => {
  const store = fileStore(dir);
  await operations.record({ store, by }, { runId, source: { kind: 'report', report } });
  return (await foldRunFromStart(store, runId)).state;
};

const replayRound1 = async (dir: string, runId: string) => {
  await operations.open(
    { store: fileStore(dir), by },
    {
      runId,
      policy: CORPUS_POLICY,
      inputSha: r1.registered.head,
      revision: { commit: r1.registered.head },
      touched: [...r1.diffFiles],
    },
  );
  const report = round1Report(runId);
  return { report, recorded: await recordRound(dir, runId, report) };
};

/**
 * Round 2 as the registrar ruled it: a decision (its verifier's note as evidence) for every open
 * finding `ruledOn` selects, and the round's confirmed candidates that are not existing findings.
 */
const round2Report = (runId: string, state: RunState, ruledOn: (f: Finding) => boolean): RoundReport => {
  const ruled = rulings(r2.registered);
  const decisions = openFindings(state)
    .filter(ruledOn)
    .map((f): Decision => {
      const corpusId = corpusIdOf(f);
      const status = ruled.get(corpusId);
      const evidence = r2.verdicts.get(corpusId)?.note;
      if (status === undefined || evidence === undefined)
        throw new Error(`the corpus never ruled on ${corpusId}`);
      return { id: f.id, status, evidence };
    });
  return {
    runId,
    round: 2,
    inputSha: r2.registered.head,
    completed: true,
    candidates: confirmedCandidates(r2).filter((c) => findingOf(state, findingId(c)) === undefined),
    decisions,
    notExamined: r2.registered.notExamined,
    reviewer: 'issueflow: 4 finders, 8 verifiers',
  };
};

const replayRound2 = async (
  dir: string,
  runId: string,
  touched: ReadonlyArray<string>,
  ruledOn: (f: Finding) => boolean,
) => {
  const { recorded: round1 } = await replayRound1(dir, runId);
  await operations.capture(
    { store: fileStore(dir), by },
    { runId, inputSha: r2.registered.head, revision: { commit: r2.registered.head }, touched: [...touched] },
  );
  const report = round2Report(runId, round1, ruledOn);
  return { round1, report, recorded: await recordRound(dir, runId, report) };
};

const plausible = (round: CorpusRound) =>
  round.planned.filter((p) => round.verdicts.get(p.id)?.verdict === 'PLAUSIBLE').map(identity);

describe('replaying issueflow PR #236 (a real two-round review) through clearance', () => {
  it('round 1: every distinct confirmed candidate is admitted, the confirmed majors block, the log verifies', async () => {
    const dir = await tempDir();
    const { report, recorded } = await replayRound1(dir, 'pr236');

    // derived from the corpus alone
    const confirmed = confirmedCandidates(r1);
    const distinct = new Set(confirmed.map(findingId));
    const majors = confirmed.filter((c) => c.severity === 'major');
    expect([r1.filed.size, confirmed.length, distinct.size, majors.length]).toEqual([38, 35, 35, 6]);

    const state = recorded;
    expect(findingsInOrder(state).map((f) => f.id)).toEqual([...distinct]);
    expect(openBlockingFindings(state).map((f) => f.id)).toEqual(majors.map(findingId));
    expect([state.status, state.round]).toEqual(['open', 1]);
    expect(toArray(state.suppressed)).toEqual([]);

    const read = await foldRunFromStart(fileStore(dir), 'pr236');
    expect([read.issue, read.tornTail, read.events, read.refused]).toEqual([null, null, 3, 0]);
    const reportBytes = Buffer.byteLength(JSON.stringify(report));
    expect(reportBytes).toBeGreaterThan(20_000);
    expect((await readFile(runPaths(dir, 'pr236').log)).length).toBeGreaterThan(reportBytes);
    expect(report.notExamined).toHaveLength(32);
  });

  it('round 1 against the registrar: the same 35 findings; one severity differs, by a demotion clearance does not make', async () => {
    const dir = await tempDir();
    const { recorded } = await replayRound1(dir, 'pr236');
    const findings = findingsInOrder(recorded);
    const registered = new Map(r1.registered.findings.map((f) => [f.id, f]));
    expect(findings.map(corpusIdOf).sort()).toEqual([...registered.keys()].sort());
    expect(r1.registered.counts.open).toBe(findings.length);

    // the registrar demoted one verified major to a nit ("cleanup angles are nits"); clearance takes
    // the verifier's severity, so it blocks on 6 findings where the registrar counts 5 majors
    const differ = findings
      .map((f) => ({ f, reg: registered.get(corpusIdOf(f)) }))
      .filter(({ f, reg }) => reg?.severity !== f.severity)
      .map(({ f, reg }) => ({
        id: reg?.id,
        clearance: f.severity,
        registrar: reg?.severity,
        demoted: reg?.demoted,
      }));
    expect(differ).toEqual([
      { id: 'f-bbf94366', clearance: 'major', registrar: 'nit', demoted: 'cleanup-angles-are-nits' },
    ]);
    expect(r1.registered.counts.majors).toBe(openBlockingFindings(recorded).length - 1);

    // the registrar's "suppressed" is about what the posted review shows (a nit cap): those findings
    // stay registered and open. Under this policy clearance admits every nit and suppresses none.
    const suppressed = r1.registered.findings.filter((f) =>
      r1.registered.transitions.suppressed.includes(f.id),
    );
    expect(suppressed).toHaveLength(20);
    expect(suppressed.every((f) => f.status === 'open')).toBe(true);
    expect(toArray(recorded.suppressed)).toEqual([]);
  });

  it('round 2: rulings for the touched files and the new confirmed candidates fold to what the registrar recorded', async () => {
    const dir = await tempDir();
    // the PR diff at round 2's head touches every file a round-1 finding is in
    expect(r2.diffFiles).toHaveLength(6);
    const findingFiles = new Set(r1.registered.findings.map((f) => f.file));
    expect([...findingFiles].filter((file) => !r2.diffFiles.includes(file))).toEqual([]);

    const inTouchedFile = (f: Finding) => r2.diffFiles.includes(f.file);
    const { round1, report, recorded } = await replayRound2(dir, 'pr236', r2.diffFiles, inTouchedFile);
    const state = recorded;
    const transitions = r2.registered.transitions;
    expect(report.decisions).toHaveLength(transitions.fixed.length + transitions.stillOpen.length);
    expect(report.candidates).toHaveLength(confirmedCandidates(r2).length); // none repeats a finding

    // fixed: exactly the registrar's 11, among them all 5 of its round-1 majors
    const fixed = findingsInOrder(state).filter((f) => f.status === 'fixed');
    expect(fixed.map(corpusIdOf).sort()).toEqual([...transitions.fixed].sort());
    const registeredMajors = r1.registered.findings.filter((f) => f.severity === 'major').map((f) => f.id);
    expect(registeredMajors.filter((id) => transitions.fixed.includes(id))).toHaveLength(5);
    const blockingInRound1 = openBlockingFindings(round1);
    expect(blockingInRound1.filter((f) => findingOf(state, f.id)?.status === 'fixed')).toHaveLength(5);

    // every finding clearance holds has the registrar's status
    const registered = new Map(r2.registered.findings.map((f) => [f.id, f]));
    const held = findingsInOrder(state).map((f) => [corpusIdOf(f), f.status]);
    expect(held).toEqual(held.map(([id]) => [id, registered.get(id ?? '')?.status]));

    // the registrar also registered the 2 candidates its verifiers only found PLAUSIBLE; this replay
    // offers the CONFIRMED ones only (the seed form), so it holds 2 findings fewer
    // (pr236-contributions.test.ts offers every candidate with its verdict)
    const notHeld = r2.registered.findings
      .filter((f) => findingOf(state, findingId(f)) === undefined)
      .map(identity);
    expect(notHeld.sort()).toEqual(plausible(r2).sort());
    expect(openFindings(state)).toHaveLength(r2.registered.counts.open - 2);

    // still blocking: the 2 new majors, and the demoted major the registrar counts as a nit
    const stillBlocking = openBlockingFindings(state).map(corpusIdOf);
    expect(stillBlocking).toHaveLength(r2.registered.counts.majors + 1);
    expect(stillBlocking).toContain('f-bbf94366');
    expect([state.status, state.round, r2.registered.verdict]).toEqual(['open', 2, 'open']);

    const read = await foldRunFromStart(fileStore(dir), 'pr236');
    expect([read.issue, read.tornTail, read.events, read.refused]).toEqual([null, null, 5, 0]);
  });

  it('round 2 on the r1→r2 delta: the registrar rules on untouched files, only ever "still open", which this policy allows', async () => {
    // the PR diff is measured from the base; what changed between the two reviewed heads is the
    // files whose blob differs, which is what clearance's own capture (git diff) reports
    const delta = r2.diffFiles.filter((file) => r1.blobs.get(file) !== r2.blobs.get(file));
    expect(delta).toEqual(['tests/test_perf_benchmarks.py']);

    const dir = await tempDir();
    // the registrar ruled on every round-1 finding: offer each ruling, touched file or not
    const { round1, report, recorded } = await replayRound2(dir, 'pr236-delta', delta, () => true);
    const untouched = report.decisions.filter((d) => !delta.includes(findingOf(round1, d.id)?.file ?? ''));
    expect(untouched.length).toBeGreaterThan(0);
    expect(new Set(untouched.map((d) => d.status))).toEqual(new Set(['open']));

    // the same verdict as when every file counts as touched
    const other = await replayRound2(await tempDir(), 'pr236', r2.diffFiles, () => true);
    const statuses = (s: RunState) => findingsInOrder(s).map((f) => [f.id, f.status, f.blocking]);
    expect(statuses(recorded)).toEqual(statuses(other.recorded));
    expect(recorded.status).toBe('open');
  });
});
