import type { Decision } from '../../events/report-types.js';
import { type Findings, lookUp } from '../finding-index.js';
import type { FindingStep, RunState, Stall, StallWhy } from '../state.js';
import { at, last, type Vec } from '../vec.js';
import { upheldPastLimit } from './disputes.js';

/**
 * Stalls caught before the cap (policy `stallRounds`; off when absent, so a log that pinned a
 * policy without it folds exactly as it always did), and disputes upheld past the policy's count
 * (`disputed`, rules/disputes.ts: a log written before disputes holds none). A round stalls the
 * run when one of the blocking findings it decided
 *
 * - has been decided `open` in `stallRounds` consecutive rounds, this one the last: every round
 *   from `round - stallRounds + 1` to `round` recorded an `open` decision on it (a round that
 *   carried it undecided, or ended without a report, breaks the streak: nothing was ruled);
 * - was reopened by this round for the second time: fixed, reopened, fixed, reopened, the fix is
 *   not holding.
 *
 * Only steps after the last extension count: a person who extends a stalled run gives its
 * findings a fresh start, so the next round does not stall it again on the same evidence.
 *
 * Each finding's steps are read from the newest back, only as far as the rule needs: the last
 * `stallRounds` of them, or back to its previous reopening (which stalls the run, so the next walk
 * starts after an extension): over a run, no step is read more than twice.
 */
export const stallOf = (
  state: RunState,
  round: number,
  findings: Findings,
  decisions: ReadonlyArray<Decision>,
): Stall | null => {
  const rounds = state.run?.policy.stallRounds;
  const since = last(state.extensions)?.round ?? 0;
  const stalled = [
    ...(rounds === undefined ? [] : streaksOf(findings, decisions, since, round, rounds)),
    ...upheldPastLimit(state, findings),
  ];
  return stalled.length === 0 ? null : { round, findings: stalled };
};

/** The blocking findings the round decided that kept open `rounds` rounds running, or reopened twice. */
const streaksOf = (
  findings: Findings,
  decisions: ReadonlyArray<Decision>,
  since: number,
  round: number,
  rounds: number,
): ReadonlyArray<Readonly<{ id: string; why: StallWhy }>> => {
  const stalled: Array<Readonly<{ id: string; why: StallWhy }>> = [];
  for (const d of decisions) {
    const finding = lookUp(findings, d.id);
    if (finding === undefined || !finding.blocking || finding.status !== 'open') continue;
    if (d.status === 'open' && keptOpen(finding.steps, since, round, rounds))
      stalled.push({ id: d.id, why: 'kept-open' });
    if (d.status === 'reopened' && reopenedTwice(finding.steps, since))
      stalled.push({ id: d.id, why: 'reopened-twice' });
  }
  return stalled;
};

/**
 * The last `rounds` steps are `open` decisions of the rounds up to `round`, one each, with no gap,
 * all after the last extension (steps are in round order, so those after it are a suffix).
 */
const keptOpen = (steps: Vec<FindingStep>, since: number, round: number, rounds: number): boolean => {
  if (steps.size < rounds) return false;
  for (let i = 0; i < rounds; i++) {
    const s = at(steps, steps.size - rounds + i) as FindingStep;
    const wanted = round - rounds + 1 + i;
    if (s.round <= since || s.how !== 'decided' || s.status !== 'open' || s.round !== wanted) return false;
  }
  return true;
};

/** Two `reopened` steps after the last extension: this round's and an earlier one. */
const reopenedTwice = (steps: Vec<FindingStep>, since: number): boolean => {
  let reopenings = 0;
  for (let i = steps.size - 1; i >= 0; i--) {
    const s = at(steps, i) as FindingStep;
    if (s.round <= since) return false;
    if (s.how === 'reopened') reopenings += 1;
    if (reopenings >= 2) return true;
  }
  return false;
};
