import { type Cost, sameInputRoundsOf } from '../../events/policy.js';
import { addCost } from '../rules/cost-bounds.js';
import type { RoundOutcome, RoundTally, RunState } from '../state.js';
import { toArray } from '../vec.js';

/**
 * How a loop is going, read from the blocking findings open after each round (before round 1:
 * none). Advisory only: it never changes the verdict.
 * - `converging`: none is open after the last round, or the count fell in each of the last two;
 * - `diverging`: it rose in each of the last two rounds;
 * - `flat`: anything else once two rounds have ended;
 * - `early`: fewer than two rounds have ended and blocking findings are open.
 */
export type Trend = 'early' | 'converging' | 'flat' | 'diverging';

/** One ended round as the trend shows it: how it ended, what it did, what its stages spent. */
export type RoundRow = RoundOutcome & Readonly<{ spent: Cost }>;

export const trendOf = (tallies: ReadonlyArray<RoundTally>): Trend | null => {
  const blocking = [0, ...tallies.map((t) => t.blockingOpen)];
  const n = blocking.length - 1;
  if (n === 0) return null;
  const last = blocking[n] as number;
  if (last === 0) return 'converging';
  if (n < 2) return 'early';
  const rise = (i: number) => (blocking[i] as number) - (blocking[i - 1] as number);
  if (rise(n) < 0 && rise(n - 1) < 0) return 'converging';
  if (rise(n) > 0 && rise(n - 1) > 0) return 'diverging';
  return 'flat';
};

/** Every ended round with its tally and what its stages spent (from the cost entries of that round). */
export const roundRowsOf = (state: RunState): ReadonlyArray<RoundRow> => {
  const spent = new Map<number, Cost>();
  for (const entry of toArray(state.costs))
    spent.set(entry.round, addCost(spent.get(entry.round) ?? {}, entry.cost));
  return toArray(state.outcomes).map((o) => ({ ...o, spent: spent.get(o.round) ?? {} }));
};

export type SameInput = Readonly<{
  rounds: number;
  allowed: number;
  /** each such round, and why it reviewed the same bytes again */
  each: ReadonlyArray<Readonly<{ round: number; reason: string }>>;
}>;

/** Rounds that reviewed unchanged input as a recorded choice, each with its reason, and how many the run's policy allows. */
export const sameInputOf = (state: RunState): SameInput => ({
  rounds: state.sameInputRounds,
  allowed: state.run === null ? 0 : sameInputRoundsOf(state.run.policy),
  each: toArray(state.outcomes).flatMap((o) =>
    o.sameInput === undefined ? [] : [{ round: o.round, reason: o.sameInput }],
  ),
});
