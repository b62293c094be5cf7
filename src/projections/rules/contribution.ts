import * as E from '#either';
import type { ContributionAbsent, ContributionRecorded } from '../../events/event.js';
import { findingId } from '../../events/finding-id.js';
import { stepTo } from '../../events/next-step.js';
import type { Policy } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import type { RoundReport, Verification } from '../../events/report-types.js';
import type { DeciderHost } from '../evolve.js';
import type { Absentee, Contribution, Panel, Run, RunState } from '../state.js';
import { boundToNextRound, carriedReportBinds } from './binding.js';
import { identifyCandidates } from './candidates.js';
import { decisionFitsFinding } from './decisions.js';
import { namedFinding } from './finding-ref.js';
import { acceptingRounds } from './lifecycle.js';
import { reviewerOf } from './merge.js';
import { nextRoundOf } from './next-round.js';
import { fixedOnlyIfReproductionPasses } from './reproductions.js';
import { fail, isBlank } from './rule-answer.js';

/** The contributions and absences that belong to the round in progress at the captured input. */
export const panelOfNextRound = (state: RunState) => {
  const round = nextRoundOf(state);
  const inputSha = state.capture?.inputSha;
  return {
    contributions: state.contributions.filter((c) => c.round === round && c.report.inputSha === inputSha),
    absent: state.absent.filter((a) => a.round === round && a.inputSha === inputSha),
  };
};

/**
 * The reviewers heard from for a round: each who handed in a report (an anonymous one as
 * `ANONYMOUS`) or was recorded absent. What the merge and the round's close count as accounted for.
 */
export const heardFrom = (
  panel: Readonly<{ contributions: ReadonlyArray<Contribution>; absent: ReadonlyArray<Absentee> }>,
): ReadonlySet<string> =>
  new Set([...panel.contributions.map(reviewerOf), ...panel.absent.map((a) => a.expert)]);

/** The panel of a round: its contributions in the order recorded, its reviewers, its absentees. */
export const panelOf = (
  round: number,
  contributions: ReadonlyArray<Contribution>,
  absent: ReadonlyArray<Absentee>,
): Panel => ({
  round,
  contributors: [...new Set(contributions.map(reviewerOf))].sort(),
  reports: contributions.map((c) => ({
    reviewer: reviewerOf(c),
    reportSha: c.reportSha,
    candidates: c.report.candidates.length,
    decisions: c.report.decisions.length,
  })),
  absent: absent.map(({ expert, reason, detail }) => ({ expert, reason, detail })),
});

/** A reviewer hands in one report, or is absent, once per round. */
const notYetHeard = (state: RunState, reviewer: string | undefined): E.Either<Rejection, void> => {
  if (reviewer === undefined) return E.right(undefined);
  const { contributions, absent } = panelOfNextRound(state);
  const heard = contributions.some((c) => c.expert === reviewer) || absent.some((a) => a.expert === reviewer);
  return heard
    ? fail(
        'duplicate-contribution',
        `${reviewer} already handed in (or was recorded absent for) round ${nextRoundOf(state)}: one report per reviewer per round`,
        ['expert'],
      )
    : E.right(undefined);
};

/**
 * A verifier's correction of where a candidate is: a line (an integer >= 1), a file when it names
 * one, and evidence, for a candidate it keeps (a refuted one opens nowhere).
 */
const correctionHolds = (v: Verification, i: number): E.Either<Rejection, void> => {
  const correction = v.correction;
  if (correction === undefined) return E.right(undefined);
  const at = (field: string) => ['verifications', i, 'correction', field];
  if (!Number.isInteger(correction.line) || correction.line < 1)
    return fail(
      'invalid-line',
      `verifications[${i}].correction.line is ${correction.line}: a line is an integer >= 1`,
      at('line'),
    );
  if (correction.file !== undefined && isBlank(correction.file))
    return fail(
      'empty-field',
      `verifications[${i}].correction.file is empty: name the file, or leave it out`,
      at('file'),
    );
  if (isBlank(correction.evidence))
    return fail(
      'empty-evidence',
      `verifications[${i}].correction.evidence is empty: say why the candidate is there (quote the line)`,
      at('evidence'),
    );
  if (v.verdict === 'refuted')
    return fail(
      'invalid-report',
      `verifications[${i}] refutes the candidate and corrects where it is: a refuted candidate opens nowhere, so drop the correction or rule it confirmed or plausible`,
      ['verifications', i, 'correction'],
    );
  return E.right(undefined);
};

/**
 * A verifier rules on candidates already handed in for the round (or in its own report), by
 * their key, with evidence and, if it re-grades one, a severity of the policy. A ruling that names
 * no candidate is refused rather than ignored: a misspelt summary would silently keep a finding
 * the verifier meant to refute.
 */
const verificationsNameCandidates = (
  state: RunState,
  policy: Policy,
  report: RoundReport,
): E.Either<Rejection, void> => {
  const rulings = report.verifications ?? [];
  if (rulings.length === 0) return E.right(undefined);
  const known = new Set(
    [...panelOfNextRound(state).contributions.map((c) => c.report), report].flatMap((r) =>
      r.candidates.map(findingId),
    ),
  );
  for (const [i, v] of rulings.entries()) {
    const at = (field: string) => ['verifications', i, field];
    if (isBlank(v.evidence))
      return fail(
        'empty-evidence',
        `verifications[${i}].evidence is empty: say why (${v.verdict})`,
        at('evidence'),
      );
    if (v.severity !== undefined && !Object.hasOwn(policy.severities, v.severity)) {
      return fail(
        'unknown-severity',
        `verifications[${i}].severity ${JSON.stringify(v.severity)} is not a severity of policy ${policy.name} (known: ${Object.keys(policy.severities).join(', ')})`,
        at('severity'),
      );
    }
    const placed = correctionHolds(v, i);
    if (E.isLeft(placed)) return placed;
    if (!known.has(findingId(v))) {
      return fail(
        'unknown-finding',
        `verifications[${i}] rules on ${v.file} (${v.category}) ${JSON.stringify(v.summary.slice(0, 80))}, which no contribution of round ${report.round} has handed in: name a candidate by its exact file, category and summary, after its finder's contribution is recorded`,
        ['verifications', i],
      );
    }
  }
  return E.right(undefined);
};

/**
 * `contribution.recorded`: one reviewer's report, held for the round's merge. It is bound exactly
 * like a round report, and the seed's rules hold within it (complete, confirmed, well-formed, no
 * duplicated candidate, no existing finding as a candidate, decisions name findings of the run
 * and fit them: `reopened` a fixed one, anything else an open one).
 * Whether every open finding of a touched file got a decision is asked of the merged round.
 */
export const onContributionRecorded = (
  state: RunState,
  event: ContributionRecorded,
  host: DeciderHost = {},
): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { report, expert: reviewer } = event.data;
  const capture = carriedReportBinds(state, run.right, event, host);
  if (E.isLeft(capture)) return capture;
  const heard = notYetHeard(state, reviewer);
  if (E.isLeft(heard)) return heard;
  const candidates = identifyCandidates(state, run.right.policy, report.candidates);
  if (E.isLeft(candidates)) return candidates;
  const verified = verificationsNameCandidates(state, run.right.policy, report);
  if (E.isLeft(verified)) return verified;
  const seen = new Set<string>();
  for (const [i, d] of report.decisions.entries()) {
    const named = namedFinding(state.findings, d.id, `decisions[${i}].id`, ['decisions', i, 'id']);
    if (E.isLeft(named)) return named;
    // so that the votes the merge combines on one finding are all reopenings, or all rulings on it open
    const fits = decisionFitsFinding(d, named.right, i);
    if (E.isLeft(fits)) return fits;
    if (seen.has(d.id)) {
      return fail('duplicate-decision', `decisions[${i}] decides ${d.id.slice(0, 12)} a second time`, [
        'decisions',
        i,
      ]);
    }
    seen.add(d.id);
  }
  const reproduced = fixedOnlyIfReproductionPasses(state, report.round, report.inputSha, report.decisions);
  if (E.isLeft(reproduced)) return reproduced;
  return E.right({
    ...state,
    contributions: [
      ...state.contributions,
      { round: report.round, expert: reviewer ?? null, reportSha: event.data.reportSha, report },
    ],
  });
};

/** `contribution.absent`: a reviewer handed in nothing usable by the deadline; the round will be `partial`. */
export const onContributionAbsent = (
  state: RunState,
  event: ContributionAbsent,
): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const capture = boundToNextRound(state, run.right, {
    runId: run.right.runId,
    round: event.data.round,
    inputSha: event.data.inputSha,
  });
  if (E.isLeft(capture)) return capture;
  const heard = notYetHeard(state, event.data.expert);
  if (E.isLeft(heard)) return heard;
  return E.right({ ...state, absent: [...state.absent, event.data] });
};

/**
 * `record --merge` closes the round from what its reviewers handed in; with nothing handed in there
 * is nothing to merge. This is an offer's refusal, not an event's: no event is built, and the
 * absences already recorded stay as they are.
 */
export const contributionsToMerge = (
  state: RunState,
): E.Either<Rejection, Readonly<{ run: Run; contributions: readonly [Contribution, ...Contribution[]] }>> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { contributions, absent } = panelOfNextRound(state);
  const [first, ...rest] = contributions;
  if (first !== undefined) return E.right({ run: run.right, contributions: [first, ...rest] });
  const round = nextRoundOf(state);
  const { runId } = run.right;
  const heard =
    absent.length === 0
      ? 'no reviewer has handed in a report'
      : `only absences are recorded (${absent.map((a) => `${a.expert}: ${a.reason}`).join(', ')})`;
  return fail(
    'no-contributions',
    `round ${round} of ${runId} has no contribution to merge: ${heard}. Hand in each reviewer's report first, then close the round with their merge; or record the round from one report`,
    ['contributions'],
    undefined,
    { ...stepTo('contribute', runId), or: stepTo('record', runId) },
  );
};
