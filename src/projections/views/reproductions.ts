import type { RunState } from '../state.js';
import { last as lastStep } from '../vec.js';
import { citationOf } from './findings.js';

export type ReproductionToRun = Readonly<{
  findingId: string;
  citation: string;
  summary: string;
  status: 'open' | 'fixed';
  command: string;
  expected: string;
}>;

/**
 * A re-review starts by re-running the previous round's reproductions: every open finding that
 * carries one (is it still there?) and every finding the last round said was fixed (is it gone?).
 */
export const reproductionsToRun = (state: RunState): ReadonlyArray<ReproductionToRun> =>
  Object.values(state.findings).flatMap((f) => {
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
      },
    ];
  });
