import type * as t from 'io-ts';
import type { CHECK_STATES, CheckResultV1, ChecksRecordedV1 } from './codecs/checks-recorded-v1.js';
import type { ABSENCE_REASONS, ContributionAbsentV1 } from './codecs/contribution-absent-v1.js';
import type { ContributionRecordedV4 } from './codecs/contribution-recorded-v4.js';
import type { FindingDisputedV1 } from './codecs/finding-disputed-v1.js';
import type { FindingRuledV2 } from './codecs/finding-ruled-v2.js';
import type { REPRODUCTION_OUTCOMES, ReproductionRecordedV1 } from './codecs/reproduction-recorded-v1.js';
import type { LineMoveV1, RevisionCapturedV3 } from './codecs/revision-captured-v3.js';
import type { ROUND_END_RESULTS, RoundEndedV1 } from './codecs/round-ended-v1.js';
import type { FAILURE_REASONS, RoundFailedV1 } from './codecs/round-failed-v1.js';
import type { CitationCheck as CitationCheckCodec } from './codecs/round-recorded-v1.js';
import type { ROUND_RESULTS } from './codecs/round-recorded-v2.js';
import type { RoundsExtendedV2 } from './codecs/rounds-extended-v2.js';
import type { RulingSignatureV1 } from './codecs/ruling-signature-v1.js';
import type { RunOpenedV1 } from './codecs/run-opened-v1.js';
import type { StageFailedV1 } from './codecs/stage-failed-v1.js';
import type { StageFinishedV1 } from './codecs/stage-finished-v1.js';
import type { StageStartedV1 } from './codecs/stage-started-v1.js';
import type { Cost, Policy } from './policy.js';
import type { RoundReport } from './report-types.js';

/**
 * The domain events, at their latest version. Older versions exist only in `codecs/` and are
 * upcast to these in memory when read; the fold and the rules see nothing else.
 */
export type RunOpenedData = Readonly<Omit<t.TypeOf<typeof RunOpenedV1>, 'policy'> & { policy: Policy }>;
export type RevisionCapturedData = Readonly<t.TypeOf<typeof RevisionCapturedV3>>;
/** Where a capture moved an open finding's line: from the line it stood at to the one it stands at now. */
export type LineMove = Readonly<t.TypeOf<typeof LineMoveV1>>;
export type RoundRecordedData = Readonly<{
  round: number;
  inputSha: string;
  reportSha: string;
  report: RoundReport;
  /** `partial`: the budget ran out or a reviewer handed in nothing; it counts, it never converges */
  result: RoundResult;
  /** how each candidate's citation resolved at the captured revision, when it was checked */
  citations?: ReadonlyArray<CitationCheck>;
}>;
export type CitationCheck = Readonly<t.TypeOf<typeof CitationCheckCodec>>;
export type RoundFailedData = Readonly<t.TypeOf<typeof RoundFailedV1>>;
export type RoundResult = (typeof ROUND_RESULTS)[number];
export type RoundEndResult = (typeof ROUND_END_RESULTS)[number];
type WithCost<T> = Readonly<Omit<T, 'cost' | 'estimate'>> & Readonly<{ cost: Cost }>;
export type StageStartedData = Readonly<
  Omit<t.TypeOf<typeof StageStartedV1>, 'estimate'> & { estimate?: Cost }
>;
export type StageFinishedData = WithCost<t.TypeOf<typeof StageFinishedV1>>;
export type StageFailedData = WithCost<t.TypeOf<typeof StageFailedV1>>;
export type RoundEndedData = Readonly<t.TypeOf<typeof RoundEndedV1>>;
export type FindingRuledData = Readonly<t.TypeOf<typeof FindingRuledV2>>;
export type RoundsExtendedData = Readonly<t.TypeOf<typeof RoundsExtendedV2>>;
export type FindingDisputedData = Readonly<t.TypeOf<typeof FindingDisputedV1>>;
export type RulingSignature = Readonly<t.TypeOf<typeof RulingSignatureV1>>;
export type ContributionRecordedData = Readonly<
  Omit<t.TypeOf<typeof ContributionRecordedV4>, 'report'> & { report: RoundReport }
>;
export type ContributionAbsentData = Readonly<t.TypeOf<typeof ContributionAbsentV1>>;
export type ReproductionRecordedData = Readonly<t.TypeOf<typeof ReproductionRecordedV1>>;
export type ReproductionOutcome = (typeof REPRODUCTION_OUTCOMES)[number];
export type ChecksRecordedData = Readonly<
  Omit<t.TypeOf<typeof ChecksRecordedV1>, 'checks'> & { checks: ReadonlyArray<CheckResult> }
>;
export type CheckResult = Readonly<t.TypeOf<typeof CheckResultV1>>;
export type CheckState = (typeof CHECK_STATES)[number];
export type AbsenceReason = (typeof ABSENCE_REASONS)[number];
export type FailureReason = (typeof FAILURE_REASONS)[number];
export type Rename = RevisionCapturedData['renames'][number];

export type RunOpened = Readonly<{ type: 'run.opened'; data: RunOpenedData }>;
export type RevisionCaptured = Readonly<{ type: 'revision.captured'; data: RevisionCapturedData }>;
export type RoundRecorded = Readonly<{ type: 'round.recorded'; data: RoundRecordedData }>;
export type RoundFailed = Readonly<{ type: 'round.failed'; data: RoundFailedData }>;
export type StageStarted = Readonly<{ type: 'stage.started'; data: StageStartedData }>;
export type StageFinished = Readonly<{ type: 'stage.finished'; data: StageFinishedData }>;
export type StageFailed = Readonly<{ type: 'stage.failed'; data: StageFailedData }>;
export type RoundEnded = Readonly<{ type: 'round.ended'; data: RoundEndedData }>;
export type FindingRuled = Readonly<{ type: 'finding.ruled'; data: FindingRuledData }>;
export type RoundsExtended = Readonly<{ type: 'rounds.extended'; data: RoundsExtendedData }>;
export type FindingDisputed = Readonly<{ type: 'finding.disputed'; data: FindingDisputedData }>;

export type ContributionRecorded = Readonly<{
  type: 'contribution.recorded';
  data: ContributionRecordedData;
}>;
export type ContributionAbsent = Readonly<{ type: 'contribution.absent'; data: ContributionAbsentData }>;
export type ReproductionRecorded = Readonly<{
  type: 'reproduction.recorded';
  data: ReproductionRecordedData;
}>;
export type ChecksRecorded = Readonly<{ type: 'checks.recorded'; data: ChecksRecordedData }>;

export type DomainEvent =
  | RunOpened
  | RevisionCaptured
  | RoundRecorded
  | RoundFailed
  | StageStarted
  | StageFinished
  | StageFailed
  | RoundEnded
  | FindingRuled
  | RoundsExtended
  | ContributionRecorded
  | ContributionAbsent
  | ReproductionRecorded
  | ChecksRecorded
  | FindingDisputed;
export type EventType = DomainEvent['type'];
export type EventOf<K extends EventType> = Extract<DomainEvent, { type: K }>;

/** One line of a run's log, decoded and upcast: the envelope's audit metadata plus the event. */
export type StoredEvent = DomainEvent &
  Readonly<{
    seq: number;
    /** the version the line was written with; `data` has been upcast to the latest */
    v: number;
    at: string;
    by: string;
    prev: string;
  }>;
