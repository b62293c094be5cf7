import type { Verdict } from '../../events/report-types.js';
import type { Findings } from '../finding-index.js';
import type { RoundOutcome } from '../state.js';
import { type Check, fail, ok } from './rule-answer.js';

/**
 * The verdict is derived, never declared: a complete round with no open blocking finding is
 * `converged`; otherwise the round cap makes it `blocked` (exhaustion is never convergence), and
 * so does a stall before the cap (rules/stall.ts); otherwise the loop goes on. A partial round, or
 * one that reviewed nothing, never converges. It reads the count of open blocking findings that
 * the findings keep, never a scan of them.
 */
export const deriveStatus = (
  cap: number,
  round: number,
  findings: Findings,
  result: RoundOutcome['result'],
  stalled = false,
): Verdict => {
  if (findings.openBlocking === 0 && result === 'complete') return 'converged';
  return round >= cap || stalled ? 'blocked' : 'open';
};

/** A report may state a verdict; if it does, it must be the derived one. */
export const declaredVerdictAgrees = (declared: Verdict | undefined, derived: Verdict): Check =>
  declared === undefined || declared === derived
    ? ok
    : fail(
        'verdict-mismatch',
        `the report declares verdict ${declared}, but its findings make it ${derived}`,
        ['verdict'],
      );
