import { findingsInOrder } from '../finding-index.js';
import {
  type Extension,
  type Finding,
  type FindingStatus,
  type FindingStep,
  type MergedFrom,
  maxRoundsOf,
  type Panel,
  type Refuted,
  type Rerun,
  type RoundOutcome,
  type Ruling,
  type RunState,
  type RunStatus,
  type Stall,
} from '../state.js';
import { last as lastOf, toArray } from '../vec.js';
import { type DeferredView, deferredOf } from './deferred.js';
import { type DisputeView, disputesOf } from './disputes.js';
import { historyOf } from './finding-history.js';
import {
  citationOf,
  type FindingView,
  findingNow,
  openBlockingFindings,
  openFindings,
  placeRecordOf,
} from './findings.js';
import { type BlockedReason, blockedReasonOf, describeStall } from './stall.js';
import { type RoundRow, roundRowsOf, type SameInput, sameInputOf, type Trend, trendOf } from './trend.js';

export type BlockingReason = Readonly<{
  id: string;
  /** where it is now (`cited`: where its reviewer cited it, when that is elsewhere) */
  file: string;
  line: number | null;
  citation: string;
  severity: string;
  summary: string;
  openedRound: number;
  /** every round that kept it open, and how: decided open, carried forward untouched, or reopened */
  keptOpen: ReadonlyArray<FindingStep>;
  /** the reviewers who proposed it, when its round was merged from contributions */
  reviewers: ReadonlyArray<string>;
  /** how many reviewers proposed it (0 for a finding from a single-report round) */
  corroboration: number;
  /** the candidates the merge folded into it */
  mergedFrom: ReadonlyArray<MergedFrom>;
}> &
  Pick<FindingView, 'cited' | 'outdated' | 'correction'>;

/** A finding a merge made from more than one candidate, or that more than one reviewer proposed. */
export type MergeReason = Readonly<{
  id: string;
  citation: string;
  severity: string;
  status: FindingStatus;
  blocking: boolean;
  openedRound: number;
  reviewers: ReadonlyArray<string>;
  corroboration: number;
  mergedFrom: ReadonlyArray<MergedFrom>;
}>;

export type Explanation = Readonly<{
  status: RunStatus;
  headline: string;
  /** while blocked: by its cap, or stalled early */
  blockedReason: BlockedReason | null;
  /** while stalled: the round that stalled it and the findings that did */
  stall: Stall | null;
  blocking: ReadonlyArray<BlockingReason>;
  advisoryOpen: number;
  /** rounds that ended without a complete review, and why: none of them can converge a run */
  incomplete: ReadonlyArray<RoundOutcome>;
  /** what a person decided past the cap, on the record */
  rulings: ReadonlyArray<Ruling>;
  extensions: ReadonlyArray<Extension>;
  /** the person whose ruling made the run converge */
  convergedBy: string | null;
  /** each round merged from contributions: who reviewed it, who was absent and why */
  panels: ReadonlyArray<Panel>;
  /** every finding, whatever its status, that a merge made from several candidates or reviewers */
  merges: ReadonlyArray<MergeReason>;
  /**
   * refuted candidates: dropped, never findings, with who refuted them and why; and candidates
   * refuted before (`before`), offered again on unchanged code with nothing new
   */
  refuted: ReadonlyArray<Refuted>;
  /** every dispute of the run: the finding, the author's reason, and how it was ruled on */
  disputes: ReadonlyArray<DisputeView>;
  /** every reproduction re-run at the start of a re-review, and what it did */
  reruns: ReadonlyArray<Rerun>;
  /** candidates deferred to a follow-up: kept whole, never findings, never blocking */
  deferred: ReadonlyArray<DeferredView>;
  /** every ended round: how it ended, what it did to the findings, what it spent */
  rounds: ReadonlyArray<RoundRow>;
  /** advisory, never the verdict: how the blocking count moved over the last rounds */
  trend: Trend | null;
  /** rounds that reviewed unchanged input as a recorded choice, and how many the policy allows */
  sameInput: SameInput;
}>;

const blockingReason = (state: RunState, found: Finding): BlockingReason => {
  const f = findingNow(state, found);
  return {
    id: f.id,
    file: f.file,
    line: f.line,
    citation: citationOf(f),
    ...placeRecordOf(f),
    severity: f.severity,
    summary: f.summary,
    openedRound: f.openedRound,
    keptOpen: historyOf(state, f).filter((step) => step.status === 'open'),
    reviewers: f.reviewers ?? [],
    corroboration: f.reviewers?.length ?? 0,
    mergedFrom: f.mergedFrom ?? [],
  };
};

const mergedFindings = (state: RunState): ReadonlyArray<MergeReason> =>
  findingsInOrder(state)
    .filter((f) => (f.reviewers?.length ?? 0) > 1 || (f.mergedFrom?.length ?? 0) > 0)
    .map((f) => ({
      id: f.id,
      citation: citationOf(findingNow(state, f)),
      severity: f.severity,
      status: f.status,
      blocking: f.blocking,
      openedRound: f.openedRound,
      reviewers: f.reviewers ?? [],
      corroboration: f.reviewers?.length ?? 0,
      mergedFrom: f.mergedFrom ?? [],
    }));

const headlineOf = (state: RunState, blocking: number): string => {
  const run = state.run;
  if (run === null) return 'no run: nothing has been opened';
  const cap = maxRoundsOf(state);
  const findings = blocking === 1 ? '1 blocking finding is' : `${blocking} blocking findings are`;
  const last = lastOf(state.outcomes);
  const lastIncomplete =
    last !== undefined && last.result !== 'complete' ? `, and round ${last.round} ended ${last.result}` : '';
  switch (state.status) {
    case 'converged':
      return state.convergedBy !== null
        ? `converged by ruling of ${state.convergedBy.by} after round ${state.round}: ${state.convergedBy.why}`
        : `converged at round ${state.round} of ${cap}: no blocking finding is open`;
    case 'blocked':
      return state.stall !== null
        ? `blocked early at round ${state.round} of ${cap}: ${blockedReasonOf(state)}, ${describeStall(state, state.stall)}; only a person can go on`
        : `blocked at round ${state.round}, the cap of ${cap} rounds: ${findings} still open${lastIncomplete}; exhaustion is never convergence`;
    default:
      return state.round === 0
        ? `open: no round recorded yet; round 1 of ${cap} ${state.capture === null ? 'needs a captured revision' : 'awaits its report'}`
        : `open after round ${state.round} of ${cap}: ${findings} open${lastIncomplete}, so round ${state.round + 1} is needed`;
  }
};

/** Why the status is what it is: the open blocking findings and the rounds that kept them open. */
export const explain = (state: RunState): Explanation => {
  const blocking = openBlockingFindings(state).map((f) => blockingReason(state, f));
  return {
    status: state.status,
    headline: headlineOf(state, blocking.length),
    blockedReason: blockedReasonOf(state),
    stall: state.status === 'blocked' ? state.stall : null,
    blocking,
    advisoryOpen: openFindings(state).length - blocking.length,
    incomplete: toArray(state.outcomes).filter((o) => o.result !== 'complete'),
    rulings: toArray(state.rulings),
    extensions: toArray(state.extensions),
    convergedBy: state.convergedBy?.by ?? null,
    panels: toArray(state.panels),
    merges: mergedFindings(state),
    refuted: toArray(state.refuted),
    disputes: disputesOf(state),
    reruns: toArray(state.reruns),
    deferred: deferredOf(state),
    rounds: roundRowsOf(state),
    trend: trendOf(toArray(state.outcomes).map((o) => o.tally)),
    sameInput: sameInputOf(state),
  };
};
