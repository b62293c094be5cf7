import type { Decision } from '../../events/report.js';
import type { Finding, FindingStep, RunState, Stall, StallWhy } from '../state.js';
import { last, toArray } from '../vec.js';

/**
 * Stalls caught before the cap (policy `stallRounds`; off when absent, so a log that pinned a
 * policy without it folds exactly as it always did). A round stalls the run when one of the
 * blocking findings it decided
 *
 * - has been decided `open` in `stallRounds` consecutive rounds, this one the last: every round
 *   from `round - stallRounds + 1` to `round` recorded an `open` decision on it (a round that
 *   carried it undecided, or ended without a report, breaks the streak: nothing was ruled);
 * - was reopened by this round for the second time: fixed, reopened, fixed, reopened, the fix is
 *   not holding.
 *
 * Only steps after the last extension count: a person who extends a stalled run gives its
 * findings a fresh start, so the next round does not stall it again on the same evidence.
 */
export const stallOf = (
  state: RunState,
  round: number,
  findings: Readonly<Record<string, Finding>>,
  decisions: ReadonlyArray<Decision>,
): Stall | null => {
  const rounds = state.run?.policy.stallRounds;
  if (rounds === undefined) return null;
  const since = last(state.extensions)?.round ?? 0;
  const stalled: Array<Readonly<{ id: string; why: StallWhy }>> = [];
  for (const d of decisions) {
    const finding = findings[d.id];
    if (finding === undefined || !finding.blocking || finding.status !== 'open') continue;
    const steps = toArray(finding.steps).filter((s) => s.round > since);
    if (d.status === 'open' && keptOpen(steps, round, rounds)) stalled.push({ id: d.id, why: 'kept-open' });
    if (d.status === 'reopened' && steps.filter((s) => s.how === 'reopened').length >= 2)
      stalled.push({ id: d.id, why: 'reopened-twice' });
  }
  return stalled.length === 0 ? null : { round, findings: stalled };
};

/** The last `rounds` steps are `open` decisions of the rounds up to `round`, one each, with no gap. */
const keptOpen = (steps: ReadonlyArray<FindingStep>, round: number, rounds: number): boolean => {
  const tail = steps.slice(-rounds);
  return (
    tail.length === rounds &&
    tail.every((s, i) => s.how === 'decided' && s.status === 'open' && s.round === round - rounds + 1 + i)
  );
};
