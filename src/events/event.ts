import type * as t from 'io-ts';
import type {
  CitationCheck as CitationCheckCodec,
  FAILURE_REASONS,
  RevisionCapturedV1,
  RoundFailedV1,
  RunOpenedV1,
} from './codecs/events-v1.js';
import type { Policy } from './policy.js';
import type { RoundReport } from './report.js';

/**
 * The domain events, at their latest version. Older versions exist only in `codecs/` and are
 * upcast to these in memory when read; the fold and the rules see nothing else.
 */
export type RunOpenedData = Readonly<Omit<t.TypeOf<typeof RunOpenedV1>, 'policy'> & { policy: Policy }>;
export type RevisionCapturedData = Readonly<t.TypeOf<typeof RevisionCapturedV1>>;
export type RoundRecordedData = Readonly<{
  round: number;
  inputSha: string;
  reportSha: string;
  report: RoundReport;
  /** how each candidate's citation resolved at the captured revision, when it was checked */
  citations?: ReadonlyArray<CitationCheck>;
}>;
export type CitationCheck = Readonly<t.TypeOf<typeof CitationCheckCodec>>;
export type RoundFailedData = Readonly<t.TypeOf<typeof RoundFailedV1>>;
export type FailureReason = (typeof FAILURE_REASONS)[number];
export type Rename = RevisionCapturedData['renames'][number];

export type RunOpened = Readonly<{ type: 'run.opened'; data: RunOpenedData }>;
export type RevisionCaptured = Readonly<{ type: 'revision.captured'; data: RevisionCapturedData }>;
export type RoundRecorded = Readonly<{ type: 'round.recorded'; data: RoundRecordedData }>;
export type RoundFailed = Readonly<{ type: 'round.failed'; data: RoundFailedData }>;

export type DomainEvent = RunOpened | RevisionCaptured | RoundRecorded | RoundFailed;
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
