import * as fc from 'fast-check';
import { describe, expect } from 'vitest';
import type { DomainEvent } from '../src/index.js';
import { invalidOfferArb, reachableRunArb } from '../src/testing.js';
import { fold } from '../test/support/decider.js';
import { property } from './property.js';
import { deepFreeze, numRuns } from './runs.js';

/** A reachable log with invalid events spliced in, as a log written by someone else might hold. */
const noisyLogArb = reachableRunArb.chain((run) =>
  fc
    .array(fc.tuple(fc.nat({ max: run.events.length }), invalidOfferArb(run.state)), { maxLength: 3 })
    .map((noise) => {
      const events: DomainEvent[] = [...run.events];
      for (const [at, { offer }] of noise.sort((a, b) => b[0] - a[0])) {
        if (offer.kind === 'events') events.splice(at, 0, ...offer.events);
      }
      return events;
    }),
);

describe('fold', () => {
  property([noisyLogArb], { numRuns })('is deterministic and never mutates what it folds', (events) => {
    const frozen = deepFreeze(events);
    const copy = structuredClone(frozen);
    const a = fold(frozen);
    expect(fold(frozen)).toEqual(a);
    expect(frozen).toEqual(copy);
  });

  property([noisyLogArb.chain((events) => fc.tuple(fc.constant(events), fc.nat({ max: events.length })))], {
    numRuns,
  })('folding b from fold(a) equals folding a ++ b', ([events, cut]) => {
    const whole = fold(events);
    const head = deepFreeze(fold(events.slice(0, cut)));
    expect(fold(events.slice(cut), head)).toEqual(whole);
  });
});
