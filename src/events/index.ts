export { ACTOR_NAME_MAX, actorNameProblem, actorNameRejection } from './actor-name.js';
export { contributionRecorded, type RecordedOptions, roundRecorded } from './build.js';
export { canonicalJson, reportSha } from './canonical-json.js';
export { type CapturedPaths, type CaptureSource, capturePathsRejection } from './capture-paths.js';
export { CHECK_STATES } from './codecs/checks-recorded-v1.js';
export { REPRODUCTION_OUTCOMES } from './codecs/reproduction-recorded-v1.js';
export { ROUND_END_RESULTS } from './codecs/round-ended-v1.js';
export { FAILURE_REASONS } from './codecs/round-failed-v1.js';
export { ROUND_RESULTS } from './codecs/round-recorded-v2.js';
export type { DecodeError } from './decode-error.js';
export { DISPUTE_REASON_MAX, disputeReasonRejection } from './dispute-reason.js';
export type {
  CheckResult,
  CheckState,
  ChecksRecorded,
  ChecksRecordedData,
  CitationCheck,
  DomainEvent,
  EventOf,
  EventType,
  FailureReason,
  FindingDisputed,
  FindingDisputedData,
  FindingRuled,
  FindingRuledData,
  LineMove,
  Rename,
  ReproductionOutcome,
  ReproductionRecorded,
  ReproductionRecordedData,
  RevisionCaptured,
  RevisionCapturedData,
  RoundEnded,
  RoundEndedData,
  RoundEndResult,
  RoundFailed,
  RoundFailedData,
  RoundRecorded,
  RoundRecordedData,
  RoundResult,
  RoundsExtended,
  RoundsExtendedData,
  RunOpened,
  RunOpenedData,
  StageFailed,
  StageFailedData,
  StageFinished,
  StageFinishedData,
  StageStarted,
  StageStartedData,
  StoredEvent,
} from './event.js';
export { findingId } from './finding-id.js';
export { oneLineProblem } from './one-line.js';
export {
  type BindPolicy,
  type Budget,
  blocksFor,
  type ChecksPolicy,
  type CitationPolicy,
  COST_KEYS,
  type Cost,
  citationsRequired,
  DEFAULT_DISPUTE_BLOCK_AFTER,
  DEFAULT_STAGES,
  type DisputesPolicy,
  disputeBlockAfter,
  disputesAllowed,
  isPresetName,
  PLAUSIBLE_POLICIES,
  type PlausiblePolicy,
  type Policy,
  PRESET_NAMES,
  PRESETS,
  type PresetName,
  type SeverityRule,
} from './policy.js';
export { decodeEventData, decodeStoredEvent, EVENT_TYPES, encodeLine, latestVersion } from './registry.js';
export {
  formatPath,
  type Path,
  REJECTION_CODES,
  type Rejection,
  type RejectionCode,
  rejection,
} from './rejection.js';
export { repoPathProblem } from './repo-path.js';
export { REPORT_LIMITS } from './report-limits.js';
export type {
  Assessment,
  Candidate,
  Decision,
  DecisionStatus,
  RoundReport,
  Verdict,
  Verification,
} from './report-types.js';
export { sha256Hex, ZERO_HASH } from './sha256.js';
export { ASSESSMENTS, DECISION_STATUSES, OPEN_FINDING_DECISIONS, VERDICTS } from './statuses.js';
