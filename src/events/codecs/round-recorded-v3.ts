import type * as t from 'io-ts';
import type { ContributionRecordedV1 } from './contribution-recorded-v1.js';
import type { RoundRecordedV2 } from './events-v2.js';
import { contributionRecordedCarrying, roundRecordedCarrying } from './report-carriers.js';
import { ReportCodecV3 } from './report-codecs.js';

/**
 * Verifier verdicts widened the stored report (report codec v3): a candidate carries `confirmed`
 * or a `verdict`, may say `introducedByDiff` and `sameAs`, and a contribution may carry
 * `verifications`. Every v2 report is a v3 report that uses none of these, so the upcasters only
 * relabel: an old log means what it meant. Never edit: add a version.
 */

/** `round.recorded` v3: v2 with a v3 report. */
export const RoundRecordedV3 = roundRecordedCarrying(ReportCodecV3);

export const upcastRoundRecordedV2 = (
  v2: t.TypeOf<typeof RoundRecordedV2>,
): t.TypeOf<typeof RoundRecordedV3> => v2;

/** `contribution.recorded` v2: v1 with a v3 report. */
export const ContributionRecordedV2 = contributionRecordedCarrying(ReportCodecV3);

export const upcastContributionRecordedV1 = (
  v1: t.TypeOf<typeof ContributionRecordedV1>,
): t.TypeOf<typeof ContributionRecordedV2> => v1;
