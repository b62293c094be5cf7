import * as fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { REJECTION_CODES, type RejectionCode } from '../src/index.js';
import { invalidOfferArb, MUTATIONS, offerTo, reachableRunArb } from '../src/testing.js';
import { property } from './property.js';
import { deepFreeze, numRuns } from './runs.js';

const runAndInvalidOffer = reachableRunArb.chain((run) =>
  invalidOfferArb(run.state).map((invalid) => ({ run, invalid })),
);

describe('invalid offers', () => {
  property([runAndInvalidOffer], { numRuns })(
    'for any reachable state, an invalid offer is refused with its code and changes nothing',
    ({ run, invalid }) => {
      const state = deepFreeze(run.state);
      const before = structuredClone(state);
      const offer = deepFreeze(invalid.offer);
      const offered = structuredClone(offer);
      const result = offerTo(state, offer);
      expect(E.isLeft(result)).toBe(true);
      if (E.isLeft(result))
        expect(result.left.code, `${invalid.mutation.name}: ${result.left.message}`).toBe(
          invalid.mutation.code,
        );
      expect(state).toEqual(before);
      expect(offer).toEqual(offered);
    },
  );

  it('the mutation catalogue covers every rejection code', () => {
    expect([...new Set(MUTATIONS.map((m) => m.code))].sort()).toEqual([...REJECTION_CODES].sort());
  });

  it('every rejection code is reached by the invalid-offer arbitrary', () => {
    // up to 6,000 offers, in batches of 500 from fixed seeds: the same cases every run, and it stops
    // at the first batch after which every code has been reached
    const reached = new Set<RejectionCode>();
    for (let batch = 0; batch < 12 && reached.size < REJECTION_CODES.length; batch += 1) {
      for (const { run, invalid } of fc.sample(runAndInvalidOffer, {
        numRuns: 500,
        seed: 20261130 + batch,
      })) {
        const result = offerTo(run.state, invalid.offer);
        if (E.isLeft(result)) reached.add(result.left.code);
      }
    }
    expect([...reached].sort()).toEqual([...REJECTION_CODES].sort());
  });
});
