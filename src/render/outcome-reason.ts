import { describeRequiredFailure } from '../projections/rules/checks.js';
import type { RoundOutcome } from '../projections/state.js';

/**
 * Why a round ended as it did, in words, from what the record holds: the reason its `round.ended`
 * gave; the required checks that did not pass, each with its link (`ci_failed` from a record of
 * checks); for a partial round, who was absent; or null for a round recorded complete.
 */
export const outcomeReason = (outcome: RoundOutcome): string | null => {
  if (outcome.reason !== null) return outcome.reason;
  if (outcome.failedChecks !== undefined) return outcome.failedChecks.map(describeRequiredFailure).join('; ');
  if (outcome.result !== 'partial') return null;
  return outcome.absent === undefined
    ? 'recorded as partial'
    : `absent: ${outcome.absent.map((a) => `${a.expert} (${a.reason})`).join(', ')}`;
};

/** An outcome as the commands print it: its reason in words, the particulars it was made from left out. */
export const describedOutcome = <T extends RoundOutcome>(outcome: T): T => {
  const { failedChecks: _, absent: __, ...rest } = outcome;
  return { ...rest, reason: outcomeReason(outcome) } as T;
};
