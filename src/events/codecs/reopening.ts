import * as t from 'io-ts';
import { ReportCodecV4 } from './report.js';
import type { ContributionRecordedV2, RoundRecordedV3 } from './verdicts.js';

/**
 * `round.recorded` v4 and `contribution.recorded` v3: their report's decisions may say `reopened`
 * (a fixed finding turned open again, on the record). Nothing else changed, and every earlier
 * report is valid as it stands, so the upcasters are the identity: a log written before reopening
 * existed folds exactly as it did. A new version (not a wider v3) so that an older clearance names
 * a log that reopens a finding as written by a newer one, instead of calling it malformed.
 * Never edit: add a version.
 */
export const RoundRecordedV4 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    reportSha: t.string,
    report: ReportCodecV4,
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

export const upcastRoundRecordedV3 = (
  v3: t.TypeOf<typeof RoundRecordedV3>,
): t.TypeOf<typeof RoundRecordedV4> => v3;

export const ContributionRecordedV3 = t.intersection([
  t.type({ round: t.number, inputSha: t.string, reportSha: t.string, report: ReportCodecV4 }),
  /** who reviewed; absent for an anonymous contribution */
  t.partial({ expert: t.string }),
]);

export const upcastContributionRecordedV2 = (
  v2: t.TypeOf<typeof ContributionRecordedV2>,
): t.TypeOf<typeof ContributionRecordedV3> => v2;
