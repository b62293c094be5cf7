import type * as t from 'io-ts';
import { type ContributionRecordedV1, contributionRecordedCarrying } from './contribution-recorded-v1.js';
import { ReportCodecV3 } from './report-v3.js';

/**
 * `contribution.recorded` v2: v1 with a v3 report (assessments, `introducedByDiff`, `sameAs`, and a
 * verifier's `verifications`), as `round.recorded` v3. Every v2 report is a v3 report: the
 * upcaster only relabels. Never edit: add a version.
 */
export const ContributionRecordedV2 = contributionRecordedCarrying(ReportCodecV3);

export const upcastContributionRecordedV1 = (
  v1: t.TypeOf<typeof ContributionRecordedV1>,
): t.TypeOf<typeof ContributionRecordedV2> => v1;
