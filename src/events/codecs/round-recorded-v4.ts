import type * as t from 'io-ts';
import { ReportCodecV4 } from './report-v4.js';
import { roundRecordedCarrying } from './round-recorded-v2.js';
import type { RoundRecordedV3 } from './round-recorded-v3.js';

/**
 * `round.recorded` v4: its report's decisions may say `reopened` (a fixed finding turned open
 * again, on the record). Nothing else changed, and every earlier report is valid as it stands, so
 * the upcaster is the identity: a log written before reopening existed folds exactly as it did. A
 * new version (not a wider v3) so that an older clearance names a log that reopens a finding as
 * written by a newer one, instead of calling it malformed. Never edit: add a version.
 */
export const RoundRecordedV4 = roundRecordedCarrying(ReportCodecV4);

export const upcastRoundRecordedV3 = (
  v3: t.TypeOf<typeof RoundRecordedV3>,
): t.TypeOf<typeof RoundRecordedV4> => v3;
