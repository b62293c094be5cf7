export type { Command, CommandKind, DecideContext, FindingRuling, Missing } from './commands.js';
export { createDecider, type Decider, type RunDecider } from './decider.js';
export type { DeciderHost, Evolve } from './evolve.js';
export {
  type FileFindings,
  type Findings,
  findingOf,
  findingsInOrder,
  openBlockingCount,
  openFindingsIn,
} from './finding-index.js';
export { emptyFold, type Folded, fold, type TrailEntry } from './fold.js';
export {
  checksOn,
  missingRequired,
  optionalFailures,
  requiredChecksOf,
  requiredFailures,
} from './rules/checks.js';
export { findingsNamed, MIN_ID_PREFIX, resolveFindingRef } from './rules/finding-ref.js';
export { MAX_ROUNDS, policyIsUsable } from './rules/lifecycle.js';
export {
  ANONYMOUS,
  type Merge,
  mergeContributions,
  mergeOrder,
  type Provenance,
  type Refutation,
} from './rules/merge.js';
export {
  type Absentee,
  type Contribution,
  type CostEntry,
  type Deferred,
  type Dispute,
  type DisputeRuling,
  type Extension,
  type Finding,
  type FindingStatus,
  type FindingStep,
  initialState,
  isFinal,
  type MergedFrom,
  maxRoundsOf,
  type Panel,
  type Place,
  type Refuted,
  type Reproduction,
  type Rerun,
  type RoundFailure,
  type RoundOutcome,
  type RoundTally,
  type Ruling,
  type Run,
  type RunState,
  type RunStatus,
  type Suppressed,
} from './state.js';
export { at, emptyVec, itemsFrom, last, push, pushAll, toArray, type Vec, vecOf } from './vec.js';
export { type CostReport, costReport } from './views/cost.js';
export { type DeferredView, deferredOf } from './views/deferred.js';
export { type DisputeView, disputesOf, pendingDisputesOf } from './views/disputes.js';
export { type BlockingReason, type Explanation, explain } from './views/explain.js';
export { type Feedback, type FeedbackFinding, type FeedbackRerun, feedbackOf } from './views/feedback.js';
export { historyOf, roundsOpenOf } from './views/finding-history.js';
export {
  citationOf,
  type FindingView,
  findingNow,
  findingsOf,
  findingView,
  openBlockingFindings,
  openFindings,
} from './views/findings.js';
export {
  type ApprovedByPatch,
  GATE_REFUSALS,
  type GateAnswer,
  type GateObservation,
  type GateRefusal,
  gateOf,
} from './views/gate.js';
export { type MayAnswer, mayRunStage } from './views/may-run-stage.js';
export { type NextMove, nextMove } from './views/next.js';
export {
  latestReruns,
  type ReproductionToRun,
  reproductionsPending,
  reproductionsToRun,
} from './views/reproductions.js';
export { type StatusView, statusOf } from './views/status.js';
export { type RoundRow, roundRowsOf, sameInputOf, type Trend, trendOf } from './views/trend.js';
