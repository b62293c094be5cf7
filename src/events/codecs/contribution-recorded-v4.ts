import type * as t from 'io-ts';
import { contributionRecordedCarrying } from './contribution-recorded-v1.js';
import type { ContributionRecordedV3 } from './contribution-recorded-v3.js';
import { ReportCodecV5 } from './report-v5.js';

/**
 * `contribution.recorded` v4: a verifier's ruling may correct where a candidate is (`correction`:
 * a line, perhaps a file, and the evidence), and the finding opens there under its finder's id.
 * Every v3 report is a v4 report that corrects nothing, so the upcaster is the identity. A new
 * version, not a wider v3, so that an older clearance names such a log as written by a newer one
 * instead of folding it with the findings where their finders cited them. `round.recorded` keeps
 * v4: the merge it stores has applied the verifications and holds none. Never edit: add a version.
 */
export const ContributionRecordedV4 = contributionRecordedCarrying(ReportCodecV5);

export const upcastContributionRecordedV3 = (
  v3: t.TypeOf<typeof ContributionRecordedV3>,
): t.TypeOf<typeof ContributionRecordedV4> => v3;
