import * as t from 'io-ts';

export const ROUND_END_RESULTS = ['none', 'ci_failed', 'partial'] as const;

/** A round ended without a report: no review, CI failed, or a partial review at the cap. Never edit: add a version. */
export const RoundEndedV1 = t.type({
  round: t.number,
  result: t.keyof({ none: null, ci_failed: null, partial: null }),
  reason: t.string,
});
