import * as E from '#either';
import { reportSha } from '../../events/canonical-json.js';
import type { RoundRecorded, RoundResult } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import type { Policy } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import type { Decision } from '../../events/report-types.js';
import type { DeciderHost } from '../evolve.js';
import { type Findings, lookUp, putFinding, renameFiles } from '../finding-index.js';
import {
  type Finding,
  maxRoundsOf,
  NO_STAGES,
  type Panel,
  type RoundTally,
  type Run,
  type RunState,
} from '../state.js';
import { push, pushAll } from '../vec.js';
import { type Admission, admitCandidates } from './admission.js';
import { carriedReportBinds } from './binding.js';
import { identifyCandidates } from './candidates.js';
import { touchedBy } from './capture.js';
import { citationsResolve } from './citations.js';
import { heardFrom, panelOf, panelOfNextRound } from './contribution.js';
import { overrun } from './cost-bounds.js';
import { decisionsCoverTouched } from './decisions.js';
import { disputedIds, disputesDecided, ruleOnDisputes } from './disputes.js';
import { acceptingRounds } from './lifecycle.js';
import { followLines } from './line-moves.js';
import { ANONYMOUS, type Merge, mergeContributions } from './merge.js';
import { nextRoundOf } from './next-round.js';
import { emptyReportSaysWhatItSkipped } from './not-examined.js';
import { keepRefuted, markTouched, repeatsIn } from './refuted-before.js';
import { fixedOnlyIfReproductionPasses } from './reproductions.js';
import { heldAsRefutedBefore, linkCorroborations, linkedStayOpen, refutedIn } from './round-candidates.js';
import { fail } from './rule-answer.js';
import { stallOf } from './stall.js';
import { declaredVerdictAgrees, deriveStatus } from './status.js';
import { admittedSeverity, atPlacement, placedRecord, plausibleIsAdvisory } from './verification.js';

/** Only the findings this round decides or opens change; the rest carry forward by derivation. */
const applyDecisions = (
  round: number,
  findings: Findings,
  decisions: ReadonlyArray<Decision>,
  opened: ReadonlyArray<Finding>,
): Findings => {
  let next = findings;
  for (const d of decisions) {
    const f = lookUp(next, d.id) as Finding;
    // a reopened finding is open again under its own id; the step keeps how it came back
    const step =
      d.status === 'reopened'
        ? ({ round, how: 'reopened', status: 'open', evidence: d.evidence } as const)
        : ({ round, how: 'decided', status: d.status, evidence: d.evidence } as const);
    next = putFinding(next, { ...f, status: step.status, steps: push(f.steps, step) });
  }
  for (const f of opened) next = putFinding(next, f);
  return next;
};

/** What a recorded round did, counted for the trend. */
const tallyOf = (
  decisions: ReadonlyArray<Decision>,
  admission: Admission,
  findings: Findings,
  filesChanged: number,
): RoundTally => {
  const decided = (status: Decision['status']) => decisions.filter((d) => d.status === status).length;
  return {
    opened: admission.opened.length,
    fixed: decided('fixed'),
    withdrawn: decided('withdrawn'),
    reopened: decided('reopened'),
    deferred: admission.deferred.length,
    stillOpen: findings.open,
    blockingOpen: findings.openBlocking,
    filesChanged,
  };
};

/**
 * A round is `complete` only if it did all its work: if it ran stages, every stage of the policy
 * finished; and the run has not spent past its budget. Otherwise it can only be recorded `partial`.
 */
const completeMeansComplete = (
  state: RunState,
  policy: Policy,
  result: RoundResult,
): E.Either<Rejection, void> => {
  if (result !== 'complete') return E.right(undefined);
  const { finished, running, failures } = state.stages;
  const ranStages = finished.length > 0 || running !== null || Object.keys(failures).length > 0;
  const unfinished = policy.stages.filter((s) => !finished.includes(s));
  if (ranStages && unfinished.length > 0) {
    return fail(
      'stages-unfinished',
      `round ${nextRoundOf(state)} ran stages but ${unfinished.join(', ')} did not finish: finish them, or record the round as partial`,
      ['result'],
      undefined,
      stepTo('record', state.run?.runId, { partial: true }),
    );
  }
  const over = overrun(policy.budget, state.spent);
  if (over !== null) {
    return fail(
      'budget-exhausted',
      `the run spent past its budget (${over}): the round can only be recorded as partial`,
      ['result'],
    );
  }
  return E.right(undefined);
};

/**
 * A round with contributions is closed by their merge, and nothing else: the stored report must be
 * exactly what `mergeContributions` makes of them (so it is re-derivable from the log). Every
 * reviewer the policy expects has handed in or been recorded absent, and a round with an absent
 * reviewer is `partial`. Returns the merge (null for a single-report round) and the panel.
 */
const closedByItsPanel = (
  state: RunState,
  { runId, policy }: Run,
  reportShaOffered: string,
  result: RoundResult,
): E.Either<Rejection, Readonly<{ merge: Merge | null; panel: Panel | null }>> => {
  const { contributions, absent } = panelOfNextRound(state);
  const round = nextRoundOf(state);
  if (absent.length > 0 && result === 'complete') {
    return fail(
      'absent-reviewer',
      `round ${round} had an absent reviewer (${absent.map((a) => `${a.expert}: ${a.reason}`).join(', ')}): it can only be recorded as partial`,
      ['result'],
    );
  }
  const [first, ...rest] = contributions;
  if (first === undefined) {
    return E.right({ merge: null, panel: absent.length === 0 ? null : panelOf(round, [], absent) });
  }
  const merge = mergeContributions(policy, [first, ...rest], repeatsIn(state));
  if (reportSha(merge.report) !== reportShaOffered) {
    return fail(
      'merge-mismatch',
      `round ${round} has ${contributions.length} contribution(s): its report must be their merge, and this one is not`,
      ['report'],
      undefined,
      stepTo('merge', runId),
    );
  }
  const heard = heardFrom({ contributions, absent });
  const unaccounted = (policy.experts ?? []).filter((e) => !heard.has(e));
  if (unaccounted.length > 0) {
    return fail(
      'expert-unaccounted',
      `policy ${policy.name} expects ${unaccounted.join(', ')} in every round: record their contribution, or record them absent (a collect does so at its deadline)`,
      ['expert'],
      undefined,
      stepTo('contribute', runId, { reviewer: unaccounted[0] ?? '' }),
    );
  }
  return E.right({ merge, panel: panelOf(round, contributions, absent) });
};

/** Why a partial merged round was partial, as data: who was absent, and why. */
const absentFrom = (result: RoundResult, panel: Panel | null) =>
  result !== 'partial' || panel === null || panel.absent.length === 0
    ? {}
    : { absent: panel.absent.map(({ expert, reason }) => ({ expert, reason })) };

/** A merged round's findings say who proposed them and what they absorbed. */
const withProvenance = (opened: ReadonlyArray<Finding>, merge: Merge | null): ReadonlyArray<Finding> =>
  merge === null
    ? opened
    : opened.map((f) => {
        const p = merge.provenance[f.id];
        return p === undefined
          ? f
          : { ...f, reviewers: p.reviewers, mergedFrom: p.mergedFrom, ...placedRecord(p.placed) };
      });

/**
 * `round.recorded`: every rule of docs/design.md "The one transition function". Any failing rule refuses
 * the whole report; nothing is partially applied.
 */
export const onRoundRecorded = (
  state: RunState,
  event: RoundRecorded,
  host: DeciderHost = {},
): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { report } = event.data;
  const capture = carriedReportBinds(state, run.right, event, host);
  if (E.isLeft(capture)) return capture;
  const { policy } = run.right;
  const round = report.round;
  const { result } = event.data;
  const lifecycle = completeMeansComplete(state, policy, result);
  if (E.isLeft(lifecycle)) return lifecycle;
  const panel = closedByItsPanel(state, run.right, event.data.reportSha, result);
  if (E.isLeft(panel)) return panel;
  if (panel.right.merge === null && report.verifications !== undefined) {
    return fail(
      'invalid-report',
      "a round report carries verifications: they rule on other contributions' candidates, so they belong in a contribution, and the round is closed by the merge",
      ['verifications'],
      undefined,
      stepTo('contribute', run.right.runId),
    );
  }
  const candidates = identifyCandidates(state, policy, report.candidates);
  if (E.isLeft(candidates)) return candidates;
  const cited = citationsResolve(run.right, report.candidates, event.data.citations);
  if (E.isLeft(cited)) return cited;
  const moved = followLines(renameFiles(state.findings, capture.right), capture.right);
  const touched = touchedBy(capture.right);
  const decided = decisionsCoverTouched(
    round,
    run.right,
    moved,
    touched,
    report.decisions,
    disputedIds(state),
  );
  if (E.isLeft(decided)) return decided;
  const answered = disputesDecided(state, round, report.decisions);
  if (E.isLeft(answered)) return answered;
  const reproduced = fixedOnlyIfReproductionPasses(state, round, report.inputSha, report.decisions);
  if (E.isLeft(reproduced)) return reproduced;
  const scoped = emptyReportSaysWhatItSkipped(policy, report);
  if (E.isLeft(scoped)) return scoped;
  const merge = panel.right.merge;
  const reviewer = report.reviewer ?? ANONYMOUS;
  const offered = candidates.right.filter(({ candidate: c }) => c.verdict !== 'refuted');
  const linked = offered.filter(({ candidate: c }) => c.sameAs !== undefined);
  const repeated = heldAsRefutedBefore(state, capture.right, round, offered, merge, [reviewer]);
  const held = new Set(repeated.map((r) => r.id));
  const inFix = (file: string) => touched.has(file);
  const admission = admitCandidates(
    {
      policy,
      round,
      alreadyAdmitted: state.admitted,
      advisory: (c) => plausibleIsAdvisory(policy, round, c, inFix),
      touched: inFix,
      reviewersOf: (id) =>
        merge?.provenance[id]?.reviewers ?? (report.reviewer === undefined ? [] : [report.reviewer]),
    },
    offered
      .filter(({ candidate: c, id }) => c.sameAs === undefined && !held.has(id))
      .map((x) => ({
        ...x,
        candidate: {
          ...atPlacement(x.candidate, merge?.provenance[x.id]?.placed),
          severity: admittedSeverity(policy, x.candidate),
        },
      })),
  );
  const decidedFindings = ruleOnDisputes(
    state,
    applyDecisions(round, moved, report.decisions, withProvenance(admission.opened, merge)),
    round,
    report.decisions,
  );
  const stillOpen = linkedStayOpen(decidedFindings, linked);
  if (E.isLeft(stillOpen)) return stillOpen;
  const findings = linkCorroborations(decidedFindings, linked, merge, reviewer);
  const stall = stallOf(state, round, findings, report.decisions);
  const status = deriveStatus(maxRoundsOf(state), round, findings, result, stall !== null);
  const agreed = declaredVerdictAgrees(report.verdict, status);
  if (E.isLeft(agreed)) return agreed;
  return E.right({
    ...state,
    status,
    round,
    capture: null,
    reviewed: capture.right,
    findings,
    admitted: admission.admitted,
    failedAttempts: 0,
    lastFailure: null,
    stages: NO_STAGES,
    outcomes: push(state.outcomes, {
      round,
      result,
      reason: null,
      ...absentFrom(result, panel.right.panel),
      ...(capture.right.sameInput === undefined ? {} : { sameInput: capture.right.sameInput.reason }),
      reportSha: event.data.reportSha,
      tally: tallyOf(report.decisions, admission, findings, touched.size),
    }),
    suppressed: pushAll(state.suppressed, admission.suppressed),
    deferred: pushAll(state.deferred, admission.deferred),
    sameInputRounds: state.sameInputRounds + (capture.right.sameInput === undefined ? 0 : 1),
    ...keepRefuted(state, [...refutedIn(round, candidates.right, merge, reviewer), ...repeated]),
    touchedIn: markTouched(state.touchedIn, capture.right, round),
    disputed: [],
    contributions: [],
    absent: [],
    panels: panel.right.panel === null ? state.panels : push(state.panels, panel.right.panel),
    stall,
  });
};
