import type { Policy } from '../../events/policy.js';
import type { Verdict } from '../../events/report.js';
import type { Finding } from '../state.js';
import { type Check, fail, ok } from './check.js';

/**
 * The verdict is derived, never declared: no open blocking finding is `converged`; otherwise the
 * round cap makes it `blocked` (never `converged`); otherwise the loop goes on.
 */
export const deriveStatus = (
  policy: Policy,
  round: number,
  findings: Readonly<Record<string, Finding>>,
): Verdict => {
  const blocked = Object.values(findings).some((f) => f.status === 'open' && f.blocking);
  if (!blocked) return 'converged';
  return round >= policy.maxRounds ? 'blocked' : 'open';
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
