import type { ReproductionOutcome } from '../../events/event.js';
import { findingsInOrder } from '../finding-index.js';
import { rerunsOn } from '../rules/reproductions.js';
import type { Rerun, RunState } from '../state.js';
import { last as lastStep, toArray } from '../vec.js';
import { citationOf } from './findings.js';

export type ReproductionToRun = Readonly<{
  findingId: string;
  citation: string;
  summary: string;
  status: 'open' | 'fixed';
  command: string;
  expected: string;
  /** what it did when re-run on the input captured for the next round; null before that */
  outcome: ReproductionOutcome | null;
}>;

/**
 * A re-review starts by re-running the previous round's reproductions: every open finding that
 * carries one (is it still there?) and every finding the last round said was fixed (is it gone?).
 * Each says what it did on the captured input, once the driver recorded it (clearance reproduce).
 */
export const reproductionsToRun = (state: RunState): ReadonlyArray<ReproductionToRun> => {
  const reruns = state.capture === null ? [] : rerunsOn(state, state.round + 1, state.capture.inputSha);
  return findingsInOrder(state).flatMap((f) => {
    if (f.reproduction === null) return [];
    const last = lastStep(f.steps);
    const fixedLastRound = f.status === 'fixed' && last?.round === state.round;
    if (f.status !== 'open' && !fixedLastRound) return [];
    return [
      {
        findingId: f.id,
        citation: citationOf(f),
        summary: f.summary,
        status: f.status === 'open' ? 'open' : 'fixed',
        ...f.reproduction,
        outcome: reruns.find((r) => r.findingId === f.id)?.outcome ?? null,
      },
    ];
  });
};

/**
 * What `next` waits for once the next round's input is captured: the reproductions not yet re-run
 * on it. Before a capture there is nothing to run them on.
 */
export const reproductionsPending = (state: RunState): ReadonlyArray<ReproductionToRun> =>
  state.capture === null || state.round === 0
    ? []
    : reproductionsToRun(state).filter((r) => r.outcome === null);

/**
 * The re-runs a reader needs now: those on the input captured for the round in progress, or,
 * when none was recorded there yet, those of the last round that ended.
 */
export const latestReruns = (state: RunState): ReadonlyArray<Rerun> => {
  const all = toArray(state.reruns);
  const next = all.filter((r) => r.round === state.round + 1 && r.inputSha === state.capture?.inputSha);
  return next.length > 0 ? next : all.filter((r) => r.round === state.round);
};
