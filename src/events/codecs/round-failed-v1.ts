import * as t from 'io-ts';

export const FAILURE_REASONS = ['timeout', 'incomplete', 'malformed', 'oversized'] as const;

/** A round's wait ended without a usable report. Never edit: add a version. */
export const RoundFailedV1 = t.type({
  round: t.number,
  inputSha: t.string,
  reason: t.keyof({ timeout: null, incomplete: null, malformed: null, oversized: null }),
  detail: t.string,
});
