import fc from 'fast-check';
import * as E from '#either';
import { roundRecorded } from '../events/build.js';
import { ROUND_END_RESULTS } from '../events/codecs/round-ended-v1.js';
import { FAILURE_REASONS } from '../events/codecs/round-failed-v1.js';
import type {
  CheckResult,
  ChecksRecordedData,
  CitationCheck,
  DomainEvent,
  LineMove,
  Rename,
  RevisionCapturedData,
  RoundResult,
} from '../events/event.js';
import { findingId } from '../events/finding-id.js';
import { citationsRequired, type Policy, sameInputRoundsOf } from '../events/policy.js';
import type { Candidate, Decision, RoundReport, Verdict } from '../events/report-types.js';
import { OPEN_FINDING_DECISIONS } from '../events/round-report.js';
import { sha256Hex } from '../events/sha256.js';
import { placeOf } from '../projections/citation.js';
import { evolveUnsigned as evolve } from '../projections/evolve.js';
import { findingOf, findingsInOrder } from '../projections/finding-index.js';
import { requiredChecksOf } from '../projections/rules/checks.js';
import { overrun } from '../projections/rules/cost-bounds.js';
import { refutedBefore } from '../projections/rules/refuted-before.js';
import { isFinal, type RunState } from '../projections/state.js';
import { toArray } from '../projections/vec.js';
import { citationOf } from '../projections/views/findings.js';

/** The small world generated reviews live in: few names, so ids and files collide often. */
export const FILES = ['src/a.ts', 'src/b.ts', 'lib/c.ts', 'docs/d.md'] as const;
export const CATEGORIES = ['correctness', 'security', 'bug', 'design'] as const;
const SUMMARIES = [
  'Missing close',
  'Unchecked error',
  'Race on write',
  'Leaked handle',
  'Wrong bound',
  'Stale cache',
] as const;

/** The random choices one round is built from; `roundEvents` maps them onto a state. */
export type RoundChoices = Readonly<{
  touched: ReadonlyArray<boolean>;
  rename: number | null;
  /** how far the lines of the open findings in touched files move (a capture from git's `moves`) */
  lineShift: number;
  /** the first of those findings has its line rewritten: outdated */
  outdated: boolean;
  candidates: ReadonlyArray<
    Readonly<{
      file: number;
      line: number;
      category: number;
      summary: number;
      severity: number;
      bySection: boolean;
      reproduce: boolean;
      /** its own report refutes it (`verdict: refuted`): kept on the record, never a finding */
      refuted: boolean;
    }>
  >;
  /** before the capture, the author disputes the open finding at this index (of the open ones), if any */
  dispute: number | null;
  /** offer again, word for word, the refuted candidate or withdrawn finding at this index, if any */
  reoffer: number | null;
  /** the decisions on open findings, in turn */
  statuses: ReadonlyArray<(typeof OPEN_FINDING_DECISIONS)[number]>;
  /** reopen the fixed finding at this index (of those fixed), if there is one */
  reopen: number | null;
  decideUntouched: boolean;
  declareVerdict: boolean;
  notExamined: boolean;
  recaptured: boolean;
  /** review the input the last round reviewed again, as a recorded choice, when the policy allows one more */
  sameInput: boolean;
  failures: ReadonlyArray<(typeof FAILURE_REASONS)[number]>;
  /** how many of the policy's stages run (0: the driver does not use stages this round) */
  stagesRun: number;
  /** the first stage fails once before it finishes */
  stageFails: boolean;
  /** tokens each stage spends */
  stageTokens: ReadonlyArray<number>;
  /** recorded as partial even when it could be complete */
  partial: boolean;
  /** end the round without a report */
  ending: (typeof ROUND_END_RESULTS)[number] | null;
  /** how the CI checks end, under a policy that names checks (a required failure ends the round) */
  ci: CiOutcome;
}>;

export type CiOutcome = 'passed' | 'optional-failed' | 'required-failed';

export const roundChoicesArb: fc.Arbitrary<RoundChoices> = fc.record({
  touched: fc.array(fc.boolean(), { minLength: FILES.length, maxLength: FILES.length }),
  rename: fc.oneof({ weight: 2, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat({ max: 7 }) }),
  lineShift: fc.integer({ min: -4, max: 12 }),
  outdated: fc.boolean(),
  candidates: fc.array(
    fc.record({
      file: fc.nat({ max: FILES.length - 1 }),
      line: fc.integer({ min: 1, max: 400 }),
      category: fc.nat({ max: CATEGORIES.length - 1 }),
      summary: fc.nat({ max: SUMMARIES.length - 1 }),
      severity: fc.nat({ max: 7 }),
      bySection: fc.boolean(),
      reproduce: fc.boolean(),
      refuted: fc.oneof(
        { weight: 4, arbitrary: fc.constant(false) },
        { weight: 1, arbitrary: fc.constant(true) },
      ),
    }),
    { maxLength: 6 },
  ),
  dispute: fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.nat({ max: 5 }) },
  ),
  reoffer: fc.oneof(
    { weight: 2, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.nat({ max: 5 }) },
  ),
  statuses: fc.array(fc.constantFrom(...OPEN_FINDING_DECISIONS), { minLength: 1, maxLength: 6 }),
  reopen: fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat({ max: 3 }) }),
  decideUntouched: fc.boolean(),
  declareVerdict: fc.boolean(),
  notExamined: fc.boolean(),
  recaptured: fc.boolean(),
  sameInput: fc.oneof(
    { weight: 3, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  failures: fc.array(fc.constantFrom(...FAILURE_REASONS), { maxLength: 1 }),
  stagesRun: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 4, arbitrary: fc.constant(5) },
    { weight: 2, arbitrary: fc.nat({ max: 3 }) },
  ),
  stageFails: fc.boolean(),
  stageTokens: fc.array(fc.nat({ max: 150 }), { minLength: 5, maxLength: 5 }),
  partial: fc.oneof(
    { weight: 5, arbitrary: fc.constant(false) },
    { weight: 1, arbitrary: fc.constant(true) },
  ),
  ending: fc.oneof(
    { weight: 12, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...ROUND_END_RESULTS) },
  ),
  ci: fc.oneof(
    { weight: 6, arbitrary: fc.constant<CiOutcome>('passed') },
    { weight: 2, arbitrary: fc.constant<CiOutcome>('optional-failed') },
    { weight: 1, arbitrary: fc.constant<CiOutcome>('required-failed') },
  ),
});

/**
 * The CI checks of a captured input, under a policy that names checks: every required one passed
 * (an expected skip skipped), the optional ones passed or failed, and a check the policy does not
 * name; or the first required one failed, with its link. Null under a policy without checks.
 */
export const checksFor = (
  policy: Policy,
  capture: Pick<RevisionCapturedData, 'round' | 'inputSha'>,
  ci: CiOutcome = 'passed',
): ChecksRecordedData | null => {
  const named = policy.checks;
  if (named === undefined) return null;
  const failFirst = ci === 'required-failed' && named.required.length > 0;
  const checks: CheckResult[] = [
    ...named.required.map((name, i): CheckResult => {
      if (failFirst && i === 0)
        return { name, state: 'failed', url: `https://ci.example/runs/${capture.round}/${name}` };
      return { name, state: named.expectedSkips.includes(name) ? 'skipped' : 'passed' };
    }),
    ...named.optional.map(
      (name): CheckResult => ({ name, state: ci === 'optional-failed' ? 'failed' : 'passed' }),
    ),
    { name: 'coverage (not in the policy)', state: 'passed' },
  ];
  return { round: capture.round, inputSha: capture.inputSha, checks };
};

const at = <T>(items: ReadonlyArray<T>, i: number): T => items[i % items.length] as T;

export type BuiltRound = Readonly<{
  capture: RevisionCapturedData;
  /** the capture's CI checks, all required ones passed, under a policy that requires checks */
  checks?: ChecksRecordedData;
  report: RoundReport;
  /** every candidate's citation, resolved, when the policy requires citations to resolve */
  citations?: ReadonlyArray<CitationCheck>;
  /** complete, unless the run spent past its budget (or the choices say partial) */
  result: RoundResult;
  /** the verdict the round derives */
  status: Verdict;
}>;

/** The input of the next round, from the choices: touched files and perhaps a rename of a finding's file. */
export const buildCapture = (
  state: RunState,
  choices: RoundChoices,
  inputTag = 'in',
): RevisionCapturedData => {
  const round = state.round + 1;
  const { reviewed, run } = state;
  if (
    choices.sameInput &&
    reviewed !== null &&
    run !== null &&
    state.sameInputRounds < sameInputRoundsOf(run.policy)
  ) {
    return {
      round,
      inputSha: reviewed.inputSha,
      touchedFiles: [],
      renames: [],
      sameInput: { reason: 'generated re-review' },
    };
  }
  const findingFiles = [...new Set(findingsInOrder(state).map((f) => f.file))].sort();
  const renameFrom =
    choices.rename === null || findingFiles.length === 0 ? null : at(findingFiles, choices.rename);
  const renames = renameFrom === null ? [] : [{ from: renameFrom, to: `moved/r${round}/${renameFrom}` }];
  const touchedFiles: string[] = FILES.filter((_, i) => choices.touched[i] === true);
  const moves = movesOf(state, choices, new Set([...touchedFiles, ...renames.map((r) => r.to)]), renames);
  return {
    round,
    inputSha: `${inputTag}-${round}`,
    touchedFiles,
    renames,
    ...(moves.length === 0 ? {} : { moves }),
  };
};

/**
 * Where a capture from git would move the open findings' lines: every one in a touched file by
 * `lineShift` (never above line 1), the first outdated when the choices say so.
 */
const movesOf = (
  state: RunState,
  choices: RoundChoices,
  touched: ReadonlySet<string>,
  renames: ReadonlyArray<Rename>,
): LineMove[] => {
  const moved = findingsInOrder(state).filter(
    (f) =>
      f.status === 'open' &&
      f.line !== null &&
      touched.has(renames.find((r) => r.from === f.file)?.to ?? f.file),
  );
  return moved.flatMap((f, i) => {
    const from = f.line ?? 1;
    const to = Math.max(1, from + choices.lineShift);
    if (choices.outdated && i === 0) return [{ id: f.id, from, to, outdated: true as const }];
    return to === from ? [] : [{ id: f.id, from, to }];
  });
};

/**
 * A valid report for the round in progress of `state`, which already holds its capture: every
 * rule of `evolve` is honoured by construction, and the result is checked.
 */
export const buildReport = (
  state: RunState,
  choices: RoundChoices,
  result: RoundResult,
): Omit<BuiltRound, 'capture' | 'result'> => {
  const run = state.run;
  const capture = state.capture;
  if (run === null || capture === null || isFinal(state.status))
    throw new Error('buildReport: the state accepts no report');
  const round = state.round + 1;
  const renamed = new Map(capture.renames.map((r) => [r.from, r.to]));
  const touched = new Set([...capture.touchedFiles, ...renamed.values()]);
  const { policy } = run;
  const severities = Object.keys(policy.severities);
  const candidates: Candidate[] = [];
  const ids = new Set<string>();
  for (const c of choices.candidates) {
    const file = at(FILES, c.file);
    const category = at(CATEGORIES, c.category);
    // documents are cited by heading as often as by line
    const location =
      file.endsWith('.md') && c.bySection ? { section: `Heading ${c.line % 5}` } : { line: c.line };
    const candidate: Candidate = {
      file,
      ...location,
      category,
      summary: at(SUMMARIES, c.summary),
      severity: at(severities, c.severity),
      ...(c.refuted ? { verdict: 'refuted' as const } : { confirmed: true }),
      evidence: `seen at ${file}:${c.line}`,
      ...(policy.principleCategories.includes(category) ? { principle: 'single responsibility' } : {}),
      ...(c.reproduce ? { reproduction: { command: `npm test -- ${file}`, expected: 'fails' } } : {}),
    };
    const id = findingId(candidate);
    if (ids.has(id) || findingOf(state, id) !== undefined) continue;
    ids.add(id);
    candidates.push(candidate);
  }
  const again = choices.reoffer === null ? undefined : offeredAgain(state, choices.reoffer);
  if (again !== undefined && !ids.has(findingId(again))) {
    ids.add(findingId(again));
    candidates.push({
      ...again,
      ...(policy.principleCategories.includes(again.category) ? { principle: 'single responsibility' } : {}),
    });
  }
  const disputed = new Set(state.disputed);
  const decisions: Decision[] = [];
  for (const f of findingsInOrder(state)) {
    if (f.status !== 'open') continue;
    const status = at(choices.statuses, decisions.length);
    if (touched.has(renamed.get(f.file) ?? f.file))
      decisions.push({ id: f.id, status, evidence: `round ${round}: ${status}` });
    else if (disputed.has(f.id)) {
      // a disputed finding needs a decision, its file touched or not: open upholds it, withdrawn accepts it
      const ruling = status === 'fixed' ? 'open' : status;
      decisions.push({ id: f.id, status: ruling, evidence: `round ${round}: ${ruling} on the dispute` });
    } else if (choices.decideUntouched && policy.untouchedDecisions.length > 0) {
      const allowed = at(policy.untouchedDecisions, decisions.length);
      decisions.push({ id: f.id, status: allowed, evidence: `round ${round}: ${allowed} without a touch` });
    }
  }
  const fixed = findingsInOrder(state).filter((f) => f.status === 'fixed');
  if (choices.reopen !== null && fixed.length > 0) {
    const f = at(fixed, choices.reopen);
    decisions.push({ id: f.id, status: 'reopened', evidence: `round ${round}: the fix did not hold` });
  }
  const listsNotExamined = choices.notExamined || (policy.notExaminedRequired && candidates.length === 0);
  const report: RoundReport = {
    runId: run.runId,
    round,
    inputSha: capture.inputSha,
    completed: true,
    candidates,
    decisions,
    ...(listsNotExamined ? { notExamined: ['generated: the tests directory'] } : {}),
  };
  const citations = citationsRequired(policy)
    ? candidates.map((c, i) => ({
        candidate: i,
        citation: citationOf(placeOf(c)),
        resolved: true,
      }))
    : undefined;
  const after = evolve(state, roundRecorded(report, { citations, result }));
  if (E.isLeft(after))
    throw new Error(`buildReport built an invalid round: ${after.left.code}: ${after.left.message}`);
  const status = after.right.status as Verdict;
  return {
    report: choices.declareVerdict ? { ...report, verdict: status } : report,
    ...(citations === undefined ? {} : { citations }),
    status,
  };
};

/**
 * A candidate kept out of the findings before, as its reviewer offered it (the refuted ones and
 * the withdrawn findings, in turn): offered again word for word, it is refuted before on unchanged
 * code. A withdrawn finding is offered again only where it would be (elsewhere its id is
 * `existing-finding`), and a refuted one only while no finding took its id since.
 */
const offeredAgain = (state: RunState, pick: number): Candidate | undefined => {
  const held: Candidate[] = [
    ...toArray(state.refuted).map((r) => ({
      file: r.file,
      ...(r.line === null ? { section: r.section ?? 'Intro' } : { line: r.line }),
      category: r.category,
      summary: r.summary,
      severity: r.severity,
      confirmed: true as const,
      evidence: r.claim,
    })),
    ...findingsInOrder(state)
      .filter((f) => f.status === 'withdrawn')
      .map((f) => ({
        file: f.file,
        ...(f.line === null ? { section: f.section ?? 'Intro' } : { line: f.line }),
        category: f.category,
        summary: f.summary,
        severity: f.severity,
        confirmed: true as const,
        evidence: f.evidence,
      })),
  ].filter((c) => {
    const f = findingOf(state, findingId(c));
    if (f === undefined) return Object.hasOwn(state.run?.policy.severities ?? {}, c.severity);
    return (
      f.status === 'withdrawn' &&
      state.capture !== null &&
      refutedBefore(state, state.capture, { candidate: c, id: f.id, index: 0 }) !== null
    );
  });
  return held.length === 0 ? undefined : at(held, pick);
};

/** Complete only if the round did all its work: every stage if it ran any, within the budget. */
const resultFor = (state: RunState, choices: RoundChoices): RoundResult => {
  const policy = state.run?.policy;
  if (policy === undefined) return 'complete';
  const { finished, running, failures } = state.stages;
  const ranStages = finished.length > 0 || running !== null || Object.keys(failures).length > 0;
  const unfinished = policy.stages.some((s) => !finished.includes(s));
  const overspent = overrun(policy.budget, state.spent) !== null;
  return overspent || (ranStages && unfinished) || choices.partial ? 'partial' : 'complete';
};

/**
 * A valid next round offered as one step (its capture, its CI checks under a policy that requires
 * them, and its report), for a state that accepts rounds.
 */
export const buildRound = (state: RunState, choices: RoundChoices, inputTag = 'in'): BuiltRound => {
  const capture = buildCapture(state, choices, inputTag);
  const captured = evolve(state, { type: 'revision.captured', data: capture });
  if (E.isLeft(captured)) throw new Error(`buildRound built an invalid capture: ${captured.left.message}`);
  const policy = captured.right.run?.policy;
  const checks =
    policy !== undefined && requiredChecksOf(policy).length > 0 ? checksFor(policy, capture) : null;
  if (checks === null) {
    const result = resultFor(captured.right, choices);
    return { capture, result, ...buildReport(captured.right, choices, result) };
  }
  const checked = evolve(captured.right, { type: 'checks.recorded', data: checks });
  if (E.isLeft(checked)) throw new Error(`buildRound built invalid checks: ${checked.left.message}`);
  const result = resultFor(checked.right, choices);
  return { capture, checks, result, ...buildReport(checked.right, choices, result) };
};

/** The outputs generated stages hand in; their hashes stand for archived objects. */
const outputSha = (round: number, stage: string) => sha256Hex(`output of ${stage} in round ${round}`);

/**
 * The events one round becomes, each checked as it is generated: perhaps a superseded capture and
 * a failed attempt, the CI checks under a policy that names them (a required failure ends the
 * round there), then either an early end, or stages (one failing once, some cut short by the
 * budget) and the report, complete only if the round did all its work within budget.
 */
export const roundEvents = (state: RunState, choices: RoundChoices): ReadonlyArray<DomainEvent> => {
  const events: DomainEvent[] = [];
  let current = state;
  const push = (event: DomainEvent): boolean => {
    const next = evolve(current, event);
    if (E.isLeft(next)) return false;
    events.push(event);
    current = next.right;
    return true;
  };
  if (choices.dispute !== null) {
    const open = findingsInOrder(current).filter((f) => f.status === 'open');
    if (open.length > 0)
      push({
        type: 'finding.disputed',
        data: {
          findingId: at(open, choices.dispute).id,
          round: current.round + 1,
          reason: 'generated dispute',
        },
      });
  }
  const capture = buildCapture(current, choices);
  if (choices.recaptured)
    push({ type: 'revision.captured', data: { ...capture, inputSha: `stale-${capture.round}` } });
  push({ type: 'revision.captured', data: capture });
  for (const reason of choices.failures) {
    push({
      type: 'round.failed',
      data: { round: capture.round, inputSha: capture.inputSha, reason, detail: `generated ${reason}` },
    });
  }
  const policy = current.run?.policy;
  const checks = policy === undefined ? null : checksFor(policy, capture, choices.ci);
  if (checks !== null) {
    push({ type: 'checks.recorded', data: checks });
    // a required check failed: the round ended ci_failed, with them as its reason
    if (current.round === capture.round) return events;
  }
  if (choices.ending !== null) {
    push({
      type: 'round.ended',
      data: { round: capture.round, result: choices.ending, reason: `generated ${choices.ending}` },
    });
    return events;
  }
  const stages = current.run?.policy.stages ?? [];
  const commands = current.run?.consent.commands ?? [];
  const wanted = Math.min(choices.stagesRun, stages.length);
  for (const [k, stage] of stages.slice(0, wanted).entries()) {
    const start = {
      type: 'stage.started' as const,
      data: { round: capture.round, stage, commands: commands.slice(0, 1) },
    };
    if (!push(start)) break; // the budget refused it: the round can only end partial
    const cost = { tokens: choices.stageTokens[k] ?? 0 };
    if (k === 0 && choices.stageFails) {
      push({
        type: 'stage.failed',
        data: { round: capture.round, stage, reason: 'the reviewer timed out', cost, runner: 'reviewer-1' },
      });
      if (!push(start)) break;
    }
    push({
      type: 'stage.finished',
      data: {
        round: capture.round,
        stage,
        outputSha: outputSha(capture.round, stage),
        cost,
        runner: `agent-${k}`,
      },
    });
  }
  const result = resultFor(current, choices);
  const { report, citations } = buildReport(current, choices, result);
  push(roundRecorded(report, { citations, result }));
  return events;
};

/** A valid next round (capture and report) for a state that accepts rounds. */
export const validRoundArb = (state: RunState): fc.Arbitrary<BuiltRound> =>
  roundChoicesArb.map((choices) => buildRound(state, choices, 'next'));
