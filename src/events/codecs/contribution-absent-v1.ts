import * as t from 'io-ts';

export const ABSENCE_REASONS = ['missing', 'malformed', 'oversized'] as const;

/** A reviewer who handed in nothing usable by the deadline: the round it belongs to is `partial`. */
export const ContributionAbsentV1 = t.type({
  round: t.number,
  inputSha: t.string,
  /** the reviewer: `expert` is the log's spelling of it, kept so every log reads back */
  expert: t.string,
  reason: t.keyof({ missing: null, malformed: null, oversized: null }),
  detail: t.string,
});
