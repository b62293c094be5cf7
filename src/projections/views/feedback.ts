import type { ReproductionOutcome } from '../../events/event.js';
import { disputeBlockAfter, disputesAllowed } from '../../events/policy.js';
import { findingOf } from '../finding-index.js';
import {
  type Dispute,
  type Extension,
  type Finding,
  type FindingStatus,
  maxRoundsOf,
  type RoundFailure,
  type RoundOutcome,
  type RunState,
  type RunStatus,
} from '../state.js';
import { last as lastOf, toArray } from '../vec.js';
import { type DeferredView, deferredOf } from './deferred.js';
import { type DisputeView, pendingDisputesOf } from './disputes.js';
import { reopeningsOf, roundsOpenOf } from './finding-history.js';
import { citationOf, openBlockingFindings, openFindings } from './findings.js';
import { latestReruns, reproductionsPending } from './reproductions.js';
import { type BlockedReason, blockedReasonOf, describeStall } from './stall.js';

/** A blocking finding as the brief shows it: where, what, why it is still open, who saw it. */
export type FeedbackFinding = Readonly<{
  id: string;
  citation: string;
  severity: string;
  summary: string;
  evidence: string;
  roundsOpen: number;
  reviewers: ReadonlyArray<string>;
  /** how many candidates a merge folded into it */
  mergedIn: number;
  /** the last round's word on it, when that round decided it open or reopened it */
  lastWord: Readonly<{ how: 'decided' | 'reopened'; round: number; evidence: string }> | null;
  reopenings: number;
  /** the author's disputes of it, oldest first, each with its ruling (null: awaiting one) */
  disputes: ReadonlyArray<Dispute>;
}>;

/** A re-run reproduction, with the status of the finding it belongs to. */
export type FeedbackRerun = Readonly<{
  id: string;
  citation: string;
  round: number;
  outcome: ReproductionOutcome;
  findingStatus: FindingStatus;
  outputSha: string | null;
}>;

/**
 * What "Review feedback, round N" tells the producer for its next attempt: how the last round
 * ended when it was not reviewed (its diagnosis), what still blocks, how much advice is pending,
 * the cap in force and who moved it, and what the re-run reproductions said. Data only:
 * `src/render/feedback.ts` writes it as Markdown.
 */
export type Feedback = Readonly<{
  round: number;
  status: RunStatus;
  cap: number;
  /** the cap the policy set, before any extension */
  policyCap: number;
  convergedBy: Readonly<{ by: string; why: string }> | null;
  /** while blocked by a stall: the findings that stalled it, in words */
  stall: string | null;
  /** while blocked: by the cap, a stall, or a finding upheld over the author's disputes */
  blockedReason: BlockedReason | null;
  /** whether the policy lets the author dispute a finding, and how many upheld disputes block */
  disputes: Readonly<{ allowed: boolean; blockAfter: number }>;
  /** the disputes the next recorded round must rule on, in the order they were made */
  pendingDisputes: ReadonlyArray<DisputeView>;
  /** the last round, when it ended without a complete review */
  ending: RoundOutcome | null;
  failure: RoundFailure | null;
  extensions: ReadonlyArray<Extension>;
  /** most corroborated first: what more reviewers saw is likelier real */
  blocking: ReadonlyArray<FeedbackFinding>;
  advisoryOpen: number;
  reruns: ReadonlyArray<FeedbackRerun>;
  /** reproductions not yet re-run on the next round's input */
  pendingReproductions: number;
  /** candidates deferred to a follow-up over the run: not this loop's to fix, on the record */
  deferred: ReadonlyArray<DeferredView>;
}>;

/** Most corroborated first (the order of the rest is kept). */
const byCorroboration = (findings: ReadonlyArray<Finding>): Finding[] =>
  [...findings].sort((a, b) => (b.reviewers?.length ?? 0) - (a.reviewers?.length ?? 0));

const lastWordOf = (f: Finding): FeedbackFinding['lastWord'] => {
  const last = lastOf(f.steps);
  if (last === undefined || last.evidence === undefined) return null;
  return last.how === 'decided' || last.how === 'reopened'
    ? { how: last.how, round: last.round, evidence: last.evidence }
    : null;
};

const feedbackFinding = (state: RunState, f: Finding): FeedbackFinding => ({
  id: f.id,
  citation: citationOf(f),
  severity: f.severity,
  summary: f.summary,
  evidence: f.evidence,
  roundsOpen: roundsOpenOf(state, f),
  reviewers: f.reviewers ?? [],
  mergedIn: f.mergedFrom?.length ?? 0,
  lastWord: lastWordOf(f),
  reopenings: reopeningsOf(f),
  disputes: f.disputes ?? [],
});

/** How the last round ended, when it did not end with a complete review. */
const endingOf = (state: RunState): RoundOutcome | null => {
  const last = lastOf(state.outcomes);
  return last === undefined || last.round !== state.round || last.result === 'complete' ? null : last;
};

export const feedbackOf = (state: RunState): Feedback => {
  const blocking = byCorroboration(openBlockingFindings(state));
  return {
    round: state.round,
    status: state.status,
    cap: maxRoundsOf(state),
    policyCap: state.run?.policy.maxRounds ?? 0,
    convergedBy: state.status === 'converged' ? state.convergedBy : null,
    stall: state.status === 'blocked' && state.stall !== null ? describeStall(state, state.stall) : null,
    blockedReason: blockedReasonOf(state),
    disputes:
      state.run === null
        ? { allowed: false, blockAfter: 0 }
        : { allowed: disputesAllowed(state.run.policy), blockAfter: disputeBlockAfter(state.run.policy) },
    pendingDisputes: pendingDisputesOf(state),
    ending: endingOf(state),
    failure: state.lastFailure,
    extensions: toArray(state.extensions),
    blocking: blocking.map((f) => feedbackFinding(state, f)),
    advisoryOpen: openFindings(state).length - blocking.length,
    reruns: latestReruns(state).map((r) => {
      const f = findingOf(state, r.findingId) as Finding;
      return {
        id: f.id,
        citation: citationOf(f),
        round: r.round,
        outcome: r.outcome,
        findingStatus: f.status,
        outputSha: r.outputSha,
      };
    }),
    pendingReproductions: reproductionsPending(state).length,
    deferred: deferredOf(state),
  };
};
