import type * as t from 'io-ts';
import { ReportCodecV3 } from './report-v3.js';
import { type RoundRecordedV2, roundRecordedCarrying } from './round-recorded-v2.js';

/**
 * `round.recorded` v3: v2 with a v3 report. Verifier assessments widened the stored report:
 * a candidate carries `confirmed` or an assessment (`verdict`), and may say `introducedByDiff`
 * and `sameAs`. Every v2 report is a v3 report that uses none of these, so the upcaster only
 * relabels: an old log means what it meant. Never edit: add a version.
 */
export const RoundRecordedV3 = roundRecordedCarrying(ReportCodecV3);

export const upcastRoundRecordedV2 = (
  v2: t.TypeOf<typeof RoundRecordedV2>,
): t.TypeOf<typeof RoundRecordedV3> => v2;
