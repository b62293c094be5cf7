import * as t from 'io-ts';
import * as E from '#either';
import { jsonText } from '../text/untrusted.js';
import { ChecksRecordedV1 } from './codecs/checks-recorded-v1.js';
import { ContributionAbsentV1 } from './codecs/contribution-absent-v1.js';
import { ContributionRecordedV1 } from './codecs/contribution-recorded-v1.js';
import { ContributionRecordedV2, upcastContributionRecordedV1 } from './codecs/contribution-recorded-v2.js';
import { ContributionRecordedV3, upcastContributionRecordedV2 } from './codecs/contribution-recorded-v3.js';
import { ContributionRecordedV4, upcastContributionRecordedV3 } from './codecs/contribution-recorded-v4.js';
import { FindingDisputedV1 } from './codecs/finding-disputed-v1.js';
import { FindingRuledV1 } from './codecs/finding-ruled-v1.js';
import { FindingRuledV2, upcastFindingRuledV1 } from './codecs/finding-ruled-v2.js';
import { ReproductionRecordedV1 } from './codecs/reproduction-recorded-v1.js';
import { RevisionCapturedV1 } from './codecs/revision-captured-v1.js';
import { RevisionCapturedV2, upcastRevisionCapturedV1 } from './codecs/revision-captured-v2.js';
import { RevisionCapturedV3, upcastRevisionCapturedV2 } from './codecs/revision-captured-v3.js';
import { RoundEndedV1 } from './codecs/round-ended-v1.js';
import { RoundFailedV1 } from './codecs/round-failed-v1.js';
import { RoundRecordedV1 } from './codecs/round-recorded-v1.js';
import { RoundRecordedV2, upcastRoundRecordedV1 } from './codecs/round-recorded-v2.js';
import { RoundRecordedV3, upcastRoundRecordedV2 } from './codecs/round-recorded-v3.js';
import { RoundRecordedV4, upcastRoundRecordedV3 } from './codecs/round-recorded-v4.js';
import { RoundsExtendedV1 } from './codecs/rounds-extended-v1.js';
import { RoundsExtendedV2, upcastRoundsExtendedV1 } from './codecs/rounds-extended-v2.js';
import { RunOpenedV1 } from './codecs/run-opened-v1.js';
import { RunOpenedV2, upcastRunOpenedV1 } from './codecs/run-opened-v2.js';
import { StageFailedV1 } from './codecs/stage-failed-v1.js';
import { StageFinishedV1 } from './codecs/stage-finished-v1.js';
import { StageStartedV1 } from './codecs/stage-started-v1.js';
import { type DecodeError, describeErrors } from './decode-error.js';
import type { DomainEvent, EventType, StoredEvent } from './event.js';

/**
 * Every event type and every version of it ever written. A version that is not the latest names
 * the upcaster that lifts its decoded data one version up; reading applies them in order, in
 * memory, and never rewrites the log. Adding a v2 of an event is: its codec, an `upcast` on v1,
 * and `latest: 2`. Nothing else changes.
 */
type VersionSpec = Readonly<{
  /** an identity codec (no transformations), so `is` accepts exactly what `decode` accepts */
  codec: t.Mixed;
  upcast?: (data: never) => unknown;
}>;

type EventSpec = Readonly<{ latest: number; versions: Readonly<Record<number, VersionSpec>> }>;

const REGISTRY: Readonly<Record<EventType, EventSpec>> = {
  'run.opened': {
    latest: 2,
    versions: { 1: { codec: RunOpenedV1, upcast: upcastRunOpenedV1 }, 2: { codec: RunOpenedV2 } },
  },
  'revision.captured': {
    latest: 3,
    versions: {
      1: { codec: RevisionCapturedV1, upcast: upcastRevisionCapturedV1 },
      2: { codec: RevisionCapturedV2, upcast: upcastRevisionCapturedV2 },
      3: { codec: RevisionCapturedV3 },
    },
  },
  'round.recorded': {
    latest: 4,
    versions: {
      1: { codec: RoundRecordedV1, upcast: upcastRoundRecordedV1 },
      2: { codec: RoundRecordedV2, upcast: upcastRoundRecordedV2 },
      3: { codec: RoundRecordedV3, upcast: upcastRoundRecordedV3 },
      4: { codec: RoundRecordedV4 },
    },
  },
  'round.failed': { latest: 1, versions: { 1: { codec: RoundFailedV1 } } },
  'stage.started': { latest: 1, versions: { 1: { codec: StageStartedV1 } } },
  'stage.finished': { latest: 1, versions: { 1: { codec: StageFinishedV1 } } },
  'stage.failed': { latest: 1, versions: { 1: { codec: StageFailedV1 } } },
  'round.ended': { latest: 1, versions: { 1: { codec: RoundEndedV1 } } },
  'finding.ruled': {
    latest: 2,
    versions: { 1: { codec: FindingRuledV1, upcast: upcastFindingRuledV1 }, 2: { codec: FindingRuledV2 } },
  },
  'rounds.extended': {
    latest: 2,
    versions: {
      1: { codec: RoundsExtendedV1, upcast: upcastRoundsExtendedV1 },
      2: { codec: RoundsExtendedV2 },
    },
  },
  'contribution.recorded': {
    latest: 4,
    versions: {
      1: { codec: ContributionRecordedV1, upcast: upcastContributionRecordedV1 },
      2: { codec: ContributionRecordedV2, upcast: upcastContributionRecordedV2 },
      3: { codec: ContributionRecordedV3, upcast: upcastContributionRecordedV3 },
      4: { codec: ContributionRecordedV4 },
    },
  },
  'contribution.absent': { latest: 1, versions: { 1: { codec: ContributionAbsentV1 } } },
  'reproduction.recorded': { latest: 1, versions: { 1: { codec: ReproductionRecordedV1 } } },
  'checks.recorded': { latest: 1, versions: { 1: { codec: ChecksRecordedV1 } } },
  'finding.disputed': { latest: 1, versions: { 1: { codec: FindingDisputedV1 } } },
};

export const EVENT_TYPES = Object.keys(REGISTRY) as EventType[];

const isEventType = (type: string): type is EventType => Object.hasOwn(REGISTRY, type);

export const latestVersion = (type: EventType): number => REGISTRY[type].latest;

/** The codec of the version of `type` a writer writes. */
export const latestCodec = (type: EventType): t.Mixed => {
  const spec = REGISTRY[type];
  const latest = spec.versions[spec.latest];
  if (latest === undefined)
    throw new Error(`registry: ${type} has no codec for its latest version ${spec.latest}`);
  return latest.codec;
};

/** Decode `data` written as `type` version `v`, and upcast it to the latest version. */
export const decodeEventData = (
  type: string,
  v: number,
  data: unknown,
): E.Either<DecodeError, DomainEvent> => {
  if (!isEventType(type)) {
    return E.left({
      path: 'type',
      message: `unknown event type ${JSON.stringify(type)} (known: ${EVENT_TYPES.join(', ')})`,
    });
  }
  const spec = REGISTRY[type];
  const version = spec.versions[v];
  if (version === undefined) {
    return E.left({
      path: 'v',
      message: `${type} version ${v} is not one this clearance knows (1..${spec.latest}); a newer clearance wrote it?`,
    });
  }
  // the guard is several times cheaper than decode; decode runs only to name what is wrong
  if (!version.codec.is(data)) {
    const decoded = version.codec.decode(data);
    return E.left(
      E.isLeft(decoded) ? describeErrors(decoded.left, 'data') : { path: 'data', message: 'does not decode' },
    );
  }
  let current: unknown = data;
  for (let at = v; at < spec.latest; at += 1) {
    const step = spec.versions[at]?.upcast as ((data: unknown) => unknown) | undefined;
    if (step === undefined) throw new Error(`registry: ${type} v${at} has no upcaster to v${at + 1}`);
    current = step(current);
  }
  return E.right({ type, data: current } as DomainEvent);
};

const Envelope = t.type({
  seq: t.number,
  type: t.string,
  v: t.number,
  at: t.string,
  by: t.string,
  prev: t.string,
  data: t.unknown,
});

/** Decode one parsed log line: the envelope first, then its data by type and version. */
export const decodeStoredEvent = (value: unknown): E.Either<DecodeError, StoredEvent> => {
  if (!Envelope.is(value)) {
    const envelope = Envelope.decode(value);
    return E.left(
      E.isLeft(envelope) ? describeErrors(envelope.left) : { path: '', message: 'does not decode' },
    );
  }
  const { seq, type, v, at, by, prev, data } = value;
  const event = decodeEventData(type, v, data);
  return E.isLeft(event)
    ? event
    : E.right({ type: event.right.type, data: event.right.data, seq, v, at, by, prev } as StoredEvent);
};

/** The bytes of one log line (without its `\n`), keys in the documented order. */
export const encodeLine = (
  e: Readonly<{ seq: number; type: EventType; at: string; by: string; prev: string; data: unknown }>,
): string =>
  // jsonText, not JSON.stringify: the same JSON, with nothing in its bytes that a terminal or the
  // Actions runner acts on (a log is shown by `export`, `cat`, a CI step): DEL, C1 and bidi
  // controls are \u escapes and `##[` is `##\u005b`, so a reviewer's string cannot act there either
  jsonText({
    seq: e.seq,
    type: e.type,
    v: latestVersion(e.type),
    at: e.at,
    by: e.by,
    prev: e.prev,
    data: e.data,
  });
