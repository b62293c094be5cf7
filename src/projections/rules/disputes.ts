import * as E from '#either';
import type { FindingDisputed } from '../../events/event.js';
import { disputeBlockAfter, disputesAllowed } from '../../events/policy.js';
import { quoted } from '../../events/quoted.js';
import type { Rejection } from '../../events/rejection.js';
import type { Decision } from '../../events/report-types.js';
import { type Findings, lookUp, putFinding } from '../finding-index.js';
import type { Dispute, DisputeRuling, Finding, RunState, StallWhy } from '../state.js';
import { last } from '../vec.js';
import { panelOfNextRound } from './contribution.js';
import { namedOpenFinding } from './finding-ref.js';
import { acceptingRounds } from './lifecycle.js';
import { forNextRound, nextRoundOf } from './next-round.js';
import { type Check, fail, isBlank, ok, shortId } from './rule-answer.js';

/**
 * Disputes (docs/loop.md "Disputes"): the author answers a finding between rounds, saying it is
 * wrong and nothing was changed for it, with one line of reasoning. The next recorded round must
 * rule on every disputed finding, its file touched or not: `open` upholds it, `withdrawn` accepts
 * the dispute. A blocking finding upheld after the policy's count of disputes (`disputes.blockAfter`,
 * 2 by default) ends the run `blocked` early, for a person to rule, as a stall does.
 */

/** The dispute of a finding still waiting for its ruling, if any (only ever its last one). */
export const pendingDispute = (finding: Finding): Dispute | undefined => {
  const latest = finding.disputes?.at(-1);
  return latest !== undefined && latest.ruling === null ? latest : undefined;
};

/**
 * A dispute is said before the round that rules on it starts its review: once a stage of the round
 * in progress ran or a reviewer handed in (or was recorded absent), its reviewers could not see it.
 */
const reviewNotBegun = (state: RunState, runId: string): Check => {
  const round = nextRoundOf(state);
  const { contributions, absent } = panelOfNextRound(state);
  const { finished, running, failures } = state.stages;
  const stages = finished.length > 0 || running !== null || Object.keys(failures).length > 0;
  if (!stages && contributions.length === 0 && absent.length === 0) return ok;
  const what = stages ? 'its stages have started' : 'its reviewers have begun handing in';
  return fail(
    'review-begun',
    `the review of round ${round} of ${runId} has begun (${what}): a dispute is said before a round's review starts, so its reviewers rule on it; dispute after round ${round} is recorded`,
    ['round'],
  );
};

/**
 * `finding.disputed`: the author disputes an open finding of an open run, for the round in
 * progress, with a reason; once per finding until a round rules on it.
 */
export const onFindingDisputed = (state: RunState, event: FindingDisputed): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { runId, policy } = run.right;
  const { findingId, round, reason } = event.data;
  const inOrder = forNextRound(
    state,
    round,
    (next) => `a dispute for round ${round}, but the round in progress of run ${runId} is ${next}`,
  );
  if (E.isLeft(inOrder)) return inOrder;
  if (!disputesAllowed(policy)) {
    return fail(
      'disputes-off',
      `policy ${policy.name} does not allow disputes (disputes.allowed is false): answer the finding by changing the code, or wait for the cap and a person's ruling`,
      ['findingId'],
    );
  }
  const named = namedOpenFinding(
    state.findings,
    findingId,
    "the dispute's finding",
    ['findingId'],
    'disputed',
  );
  if (E.isLeft(named)) return named;
  const finding = named.right;
  if (isBlank(reason))
    return fail('empty-field', 'the reason is empty: say in one line why the finding is wrong', ['reason']);
  const pending = pendingDispute(finding);
  if (pending !== undefined) {
    return fail(
      'duplicate-dispute',
      `finding ${shortId(finding.id)} is already disputed for round ${pending.round}, and no round has ruled on it yet: one dispute at a time`,
      ['findingId'],
    );
  }
  const begun = reviewNotBegun(state, runId);
  if (E.isLeft(begun)) return begun;
  const dispute: Dispute = { round, reason, ruling: null };
  return E.right({
    ...state,
    findings: putFinding(state.findings, { ...finding, disputes: [...(finding.disputes ?? []), dispute] }),
    disputed: [...state.disputed, finding.id],
  });
};

/**
 * A round rules on every disputed finding, its file touched or not (`undecided-dispute`, naming
 * the first in the order they were disputed). A contribution need not: it is asked of the round
 * its contributions merge into.
 */
export const disputesDecided = (
  state: RunState,
  round: number,
  decisions: ReadonlyArray<Decision>,
): Check => {
  if (state.disputed.length === 0) return ok;
  const decided = new Set(decisions.map((d) => d.id));
  const undecided = state.disputed.find((id) => !decided.has(id));
  if (undecided === undefined) return ok;
  const finding = lookUp(state.findings, undecided) as Finding;
  const dispute = pendingDispute(finding);
  return fail(
    'undecided-dispute',
    `round ${round} report has no decision for finding ${shortId(undecided)} (${finding.file}), which the author disputed${dispute === undefined ? '' : ` (${quoted(dispute.reason)})`}: every disputed finding needs one, its file touched or not: open upholds it, withdrawn accepts the dispute`,
    ['decisions'],
  );
};

/** The ids a round must decide because the author disputed them: a decision on one may say `open` or `withdrawn` untouched. */
export const disputedIds = (state: RunState): ReadonlySet<string> => new Set(state.disputed);

/** `finding` with its pending dispute ruled on, or as it is when none is pending. */
export const withRuling = (finding: Finding, ruling: DisputeRuling): Finding => {
  const disputes = finding.disputes;
  if (disputes === undefined || pendingDispute(finding) === undefined) return finding;
  return { ...finding, disputes: [...disputes.slice(0, -1), { ...(disputes.at(-1) as Dispute), ruling }] };
};

/** The round's decision on each pending dispute, as its ruling (every one has a decision: `disputesDecided`). */
export const ruleOnDisputes = (
  state: RunState,
  findings: Findings,
  round: number,
  decisions: ReadonlyArray<Decision>,
): Findings => {
  if (state.disputed.length === 0) return findings;
  const byId = new Map(decisions.map((d) => [d.id, d]));
  let next = findings;
  for (const id of state.disputed) {
    const d = byId.get(id);
    const f = lookUp(next, id);
    if (d === undefined || f === undefined) continue;
    const status = d.status === 'reopened' ? 'open' : d.status;
    next = putFinding(next, withRuling(f, { round, status, evidence: d.evidence }));
  }
  return next;
};

/** How many of a finding's disputes a round upheld after round `since` (the last extension). */
const upheldSince = (finding: Finding, since: number): number =>
  (finding.disputes ?? []).filter(
    (d) => d.ruling !== null && d.ruling.round > since && d.ruling.status === 'open',
  ).length;

/**
 * The blocking findings this round upheld for the policy's `blockAfter`-th time since the last
 * extension: each ends the run `blocked` early (reason `disputed`). Reads only the findings the
 * round ruled a dispute on.
 */
export const upheldPastLimit = (
  state: RunState,
  findings: Findings,
): ReadonlyArray<Readonly<{ id: string; why: StallWhy }>> => {
  const policy = state.run?.policy;
  if (policy === undefined || state.disputed.length === 0) return [];
  const since = last(state.extensions)?.round ?? 0;
  const limit = disputeBlockAfter(policy);
  return state.disputed.flatMap((id) => {
    const f = lookUp(findings, id);
    if (f === undefined || !f.blocking || f.status !== 'open') return [];
    return upheldSince(f, since) >= limit ? [{ id, why: 'disputed' as const }] : [];
  });
};
