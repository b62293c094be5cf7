import type * as t from 'io-ts';
import { contributionRecordedCarrying, roundRecordedCarrying } from './report-carriers.js';
import { ReportCodecV4 } from './report-codecs.js';
import type { ContributionRecordedV2, RoundRecordedV3 } from './round-recorded-v3.js';

/**
 * `round.recorded` v4 and `contribution.recorded` v3: their report's decisions may say `reopened`
 * (a fixed finding turned open again, on the record). Nothing else changed, and every earlier
 * report is valid as it stands, so the upcasters are the identity: a log written before reopening
 * existed folds exactly as it did. A new version (not a wider v3) so that an older clearance names
 * a log that reopens a finding as written by a newer one, instead of calling it malformed.
 * Never edit: add a version.
 */
export const RoundRecordedV4 = roundRecordedCarrying(ReportCodecV4);

export const upcastRoundRecordedV3 = (
  v3: t.TypeOf<typeof RoundRecordedV3>,
): t.TypeOf<typeof RoundRecordedV4> => v3;

export const ContributionRecordedV3 = contributionRecordedCarrying(ReportCodecV4);

export const upcastContributionRecordedV2 = (
  v2: t.TypeOf<typeof ContributionRecordedV2>,
): t.TypeOf<typeof ContributionRecordedV3> => v2;
