export { roundRecorded } from './build.js';
export { canonicalJson, reportSha } from './canonical-json.js';
export { FAILURE_REASONS } from './codecs/events-v1.js';
export type { DecodeError } from './decode-error.js';
export type {
  CitationCheck,
  DomainEvent,
  EventOf,
  EventType,
  FailureReason,
  Rename,
  RevisionCaptured,
  RevisionCapturedData,
  RoundFailed,
  RoundFailedData,
  RoundRecorded,
  RoundRecordedData,
  RunOpened,
  RunOpenedData,
  StoredEvent,
} from './event.js';
export { EventLineSchema, eventJsonSchema } from './event-schema.js';
export { findingId } from './finding-id.js';
export {
  type BindPolicy,
  blocksFor,
  type CitationPolicy,
  citationsRequired,
  isPresetName,
  type Policy,
  PolicySchema,
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
export {
  type Candidate,
  CandidateSchema,
  DECISION_STATUSES,
  type Decision,
  DecisionSchema,
  type DecisionStatus,
  parseReport,
  ReportSchema,
  type RoundReport,
  reportJsonSchema,
  VERDICTS,
  type Verdict,
} from './report.js';
export { sha256Hex, ZERO_HASH } from './sha256.js';
