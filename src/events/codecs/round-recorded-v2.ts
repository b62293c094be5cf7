import * as t from 'io-ts';
import { ReportCodecV2 } from './report-v2.js';
import type { RoundRecordedV1 } from './round-recorded-v1.js';

export const ROUND_RESULTS = ['complete', 'partial'] as const;

/**
 * `round.recorded` from v2 on: the report, its hash, the round's result and resolved citations.
 * Since v2 a new version has changed only the report inside, so each version is this shape over
 * its own report codec, and still names exactly the report it stores.
 */
export const roundRecordedCarrying = <R extends t.Mixed>(report: R) =>
  t.intersection([
    t.type({
      round: t.number,
      inputSha: t.string,
      reportSha: t.string,
      report,
      /** `partial`: the budget ran out or a reviewer handed in nothing; its findings count, it never converges */
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

/** `round.recorded` v2: a round has a result, and its report a v2 report. Never edit: add a version. */
export const RoundRecordedV2 = roundRecordedCarrying(ReportCodecV2);

/** Every round recorded before results existed was a complete review. */
export const upcastRoundRecordedV1 = (
  v1: t.TypeOf<typeof RoundRecordedV1>,
): t.TypeOf<typeof RoundRecordedV2> => ({
  ...v1,
  result: 'complete',
});
