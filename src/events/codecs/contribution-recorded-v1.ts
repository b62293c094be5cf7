import * as t from 'io-ts';
import { contributionRecordedCarrying } from './report-carriers.js';
import { ReportCodecV2 } from './report-codecs.js';

/**
 * One reviewer's report for the round in progress (`clearance contribute`, `clearance collect`):
 * bound to run, round and captured input exactly like a round report. The round is closed by a
 * `round.recorded` whose report is the merge of these (src/projections/rules/merge.ts).
 */
export const ContributionRecordedV1 = contributionRecordedCarrying(ReportCodecV2);

export const ABSENCE_REASONS = ['missing', 'malformed', 'oversized'] as const;

/** A reviewer who handed in nothing usable by the deadline: the round it belongs to is `partial`. */
export const ContributionAbsentV1 = t.type({
  round: t.number,
  inputSha: t.string,
  expert: t.string,
  reason: t.keyof({ missing: null, malformed: null, oversized: null }),
  detail: t.string,
});
