import type * as t from 'io-ts';
import { contributionRecordedCarrying } from './contribution-recorded-v1.js';
import type { ContributionRecordedV2 } from './contribution-recorded-v2.js';
import { ReportCodecV4 } from './report-v4.js';

/**
 * `contribution.recorded` v3: its report's decisions may say `reopened`, as `round.recorded` v4.
 * Every earlier report is valid as it stands: the upcaster is the identity. Never edit: add a version.
 */
export const ContributionRecordedV3 = contributionRecordedCarrying(ReportCodecV4);

export const upcastContributionRecordedV2 = (
  v2: t.TypeOf<typeof ContributionRecordedV2>,
): t.TypeOf<typeof ContributionRecordedV3> => v2;
