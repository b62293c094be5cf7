import type { Policy } from '../events/policy.js';
import type { FindingView } from '../projections/views/findings.js';

/** How loudly a finding speaks, in the words SARIF and GitHub share (GitHub says `notice` for `note`). */
export type Level = 'error' | 'warning' | 'note';

/**
 * A blocking finding is an error. An advisory finding is a warning when its severity blocks under
 * the policy but its category does not (it would block elsewhere), and a note otherwise: the level
 * comes from the policy the run pinned, never from severity names.
 */
export const levelOf = (policy: Policy, f: Pick<FindingView, 'blocking' | 'severity'>): Level =>
  f.blocking ? 'error' : policy.severities[f.severity]?.blocks === true ? 'warning' : 'note';

/** The policy lists severities most severe first (as every preset does); unknown ones sort last. */
const severityRank = (policy: Policy, severity: string): number => {
  const rank = Object.keys(policy.severities).indexOf(severity);
  return rank === -1 ? Number.MAX_SAFE_INTEGER : rank;
};

/**
 * Most important first: blocking before advisory, then by severity in the policy's order, then the
 * longest open, then the oldest, then by place, so that a cap of ten keeps the ten that matter.
 */
export const byImportance =
  (policy: Policy) =>
  (a: FindingView, b: FindingView): number =>
    Number(b.blocking) - Number(a.blocking) ||
    severityRank(policy, a.severity) - severityRank(policy, b.severity) ||
    b.roundsOpen - a.roundsOpen ||
    a.openedRound - b.openedRound ||
    a.file.localeCompare(b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    a.id.localeCompare(b.id);
