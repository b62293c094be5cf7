import { blocksFor, type Policy } from '../../events/policy.js';
import { placeOf } from '../citation.js';
import type { Finding, Suppressed } from '../state.js';
import { vecOf } from '../vec.js';
import type { Identified } from './candidates.js';

export type Admission = Readonly<{
  opened: ReadonlyArray<Finding>;
  suppressed: ReadonlyArray<Suppressed>;
  admitted: Readonly<Record<string, number>>;
}>;

/**
 * The severity policy decides admission, in report order: a severity that may enter only in
 * round 1 is suppressed later (`late`); one past its run-wide allowance is suppressed (`cap`).
 * Suppressed candidates stay on the record; they just never become findings.
 */
export const admitCandidates = (
  policy: Policy,
  round: number,
  alreadyAdmitted: Readonly<Record<string, number>>,
  candidates: ReadonlyArray<Identified>,
  /** a plausible candidate the policy keeps from blocking (rules/verification.ts) */
  advisory: (c: Identified['candidate']) => boolean = () => false,
): Admission => {
  const admitted: Record<string, number> = { ...alreadyAdmitted };
  const opened: Finding[] = [];
  const suppressed: Suppressed[] = [];
  for (const { candidate: c, id } of candidates) {
    const rule = policy.severities[c.severity];
    if (rule === undefined) continue; // unreachable: candidates are checked against the policy first
    const count = admitted[c.severity] ?? 0;
    const reason =
      rule.firstRoundOnly && round > 1
        ? 'late'
        : rule.maxAdmitted !== null && count >= rule.maxAdmitted
          ? 'cap'
          : null;
    if (reason !== null) {
      suppressed.push({
        id,
        round,
        ...placeOf(c),
        severity: c.severity,
        summary: c.summary,
        reason,
      });
      continue;
    }
    admitted[c.severity] = count + 1;
    opened.push({
      id,
      ...placeOf(c),
      category: c.category,
      summary: c.summary,
      severity: c.severity,
      evidence: c.evidence,
      principle: c.principle ?? null,
      reproduction: c.reproduction ?? null,
      blocking: blocksFor(policy, c.severity, c.category) && !advisory(c),
      status: 'open',
      openedRound: round,
      steps: vecOf([{ round, how: 'opened', status: 'open' } as const]),
      ...(c.verdict === 'confirmed' || c.verdict === 'plausible' ? { verdict: c.verdict } : {}),
    });
  }
  return { opened, suppressed, admitted };
};
