import * as t from 'io-ts';

export const REPRODUCTION_OUTCOMES = ['still-fails', 'no-longer-fails'] as const;

/**
 * A re-review re-ran a finding's reproduction on the input captured for the round in progress
 * (`clearance reproduce`), and this is what it did: the problem is still there, or it is gone. The
 * output, when given, was archived under the run by its SHA-256 before this event, like a stage's.
 */
export const ReproductionRecordedV1 = t.intersection([
  t.type({
    round: t.number,
    inputSha: t.string,
    findingId: t.string,
    outcome: t.keyof({ 'still-fails': null, 'no-longer-fails': null }),
  }),
  t.partial({ outputSha: t.string }),
]);
