import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RoundTally } from '../../src/projections/state.js';
import { type Trend, trendOf } from '../../src/projections/views/trend.js';

/**
 * `trendOf` is what docs/loop.md#the-trend says, row by row: the table there, written out here as
 * its own predicates over b₀ = 0, b₁ … bₙ (the blocking findings open after each round), agrees with
 * the function for every sequence of counts.
 */

const tally = (blockingOpen: number): RoundTally => ({
  opened: 0,
  fixed: 0,
  withdrawn: 0,
  reopened: 0,
  deferred: 0,
  stillOpen: blockingOpen,
  blockingOpen,
  filesChanged: null,
});

/** The documented table, one row a trend. */
const documented = (counts: ReadonlyArray<number>): Trend | null => {
  const b = [0, ...counts];
  const n = counts.length;
  const at = (i: number) => b[i] as number;
  if (n === 0) return null;
  if (at(n) === 0 || (n >= 2 && at(n) < at(n - 1) && at(n - 1) < at(n - 2))) return 'converging';
  if (n >= 2 && at(n) > at(n - 1) && at(n - 1) > at(n - 2)) return 'diverging';
  if (n >= 2) return 'flat';
  return 'early';
};

const trendOfCounts = (counts: ReadonlyArray<number>) => trendOf(counts.map(tally));

describe('the advisory trend, as docs/loop.md defines it', () => {
  it('examples: each row of the table, and the rounds before and after', () => {
    expect(trendOfCounts([])).toBeNull();
    expect(trendOfCounts([0])).toBe('converging');
    expect(trendOfCounts([3])).toBe('early');
    expect(trendOfCounts([3, 2, 1])).toBe('converging');
    expect(trendOfCounts([3, 3, 1])).toBe('flat');
    expect(trendOfCounts([1, 2, 3])).toBe('diverging');
    // b₀ = 0: round 1's count is a rise, so a second round with more open is diverging already
    expect(trendOfCounts([2, 5])).toBe('diverging');
    expect(trendOfCounts([5, 3])).toBe('flat');
    expect(trendOfCounts([5, 0])).toBe('converging');
    expect(trendOfCounts([1, 3, 3])).toBe('flat');
  });

  it('agrees with the documented table for every sequence of blocking counts', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { maxLength: 8 }), (counts) => {
        expect(trendOfCounts(counts)).toBe(documented(counts));
      }),
      { numRuns: 2000 },
    );
  });
});
