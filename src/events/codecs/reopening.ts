import * as t from 'io-ts';
import type { ContributionRecordedV1 } from './contribution.js';
import type { RoundRecordedV2 } from './events-v2.js';
import { ReportCodecV3 } from './report.js';

/**
 * `round.recorded` v3 and `contribution.recorded` v2: their report's decisions may say `reopened`
 * (a fixed finding turned open again, on the record). Nothing else changed, and every earlier
 * report is valid as it stands, so the upcasters are the identity: a log written before reopening
 * existed folds exactly as it did. A new version (not a wider v2) so that an older clearance names
 * a log that reopens a finding as written by a newer one, instead of calling it malformed.
 */
export const RoundRecordedV3 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    reportSha: t.string,
    report: ReportCodecV3,
    /** `partial`: the budget ran out or an expert handed in nothing; its findings count, it never converges */
    result: t.keyof({ complete: null, partial: null }),
  }),
  t.partial({
    citations: t.array(
      t.intersection([
        t.type({ candidate: t.number, citation: t.string, resolved: t.boolean }),
        t.partial({ reason: t.string }),
      ]),
    ),
  }),
]);

export const upcastRoundRecordedV2 = (
  v2: t.TypeOf<typeof RoundRecordedV2>,
): t.TypeOf<typeof RoundRecordedV3> => v2;

export const ContributionRecordedV2 = t.intersection([
  t.type({ round: t.number, inputSha: t.string, reportSha: t.string, report: ReportCodecV3 }),
  /** who reviewed; absent for an anonymous contribution */
  t.partial({ expert: t.string }),
]);

export const upcastContributionRecordedV1 = (
  v1: t.TypeOf<typeof ContributionRecordedV1>,
): t.TypeOf<typeof ContributionRecordedV2> => v1;
