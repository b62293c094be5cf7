import { blocksFor, newOutsideFixOf, type Policy, type SeverityRule } from '../../events/policy.js';
import { placeOf } from '../citation.js';
import type { Deferred, Finding, Suppressed } from '../state.js';
import { vecOf } from '../vec.js';
import { heldOf, type Identified } from './candidates.js';

export type Admission = Readonly<{
  opened: ReadonlyArray<Finding>;
  suppressed: ReadonlyArray<Suppressed>;
  deferred: ReadonlyArray<Deferred>;
  admitted: Readonly<Record<string, number>>;
}>;

/** What admission needs to know of the round besides its candidates. */
export type AdmissionContext = Readonly<{
  policy: Policy;
  round: number;
  /** how many of each severity the run admitted before this round */
  alreadyAdmitted: Readonly<Record<string, number>>;
  /** a plausible candidate the policy keeps from blocking (rules/verification.ts) */
  advisory?: (c: Identified['candidate']) => boolean;
  /** whether the last fix (this round's capture) touched a file (absent: every file) */
  touched?: (file: string) => boolean;
  /** the reviewers who proposed a candidate, by its id (absent: none named) */
  reviewersOf?: (id: string) => ReadonlyArray<string>;
}>;

type Kept = Readonly<
  | { as: 'finding'; advisory: boolean }
  | { as: 'suppressed'; reason: Suppressed['reason'] }
  | { as: 'deferred'; reason: Deferred['reason'] }
>;

/**
 * Where one candidate goes, by the first rule that holds it back: a severity that enters only in
 * round 1 is suppressed later (`late`); one past its `untilRound` is deferred (`until-round`); from
 * round 2, a candidate in a file the last fix did not touch is deferred or made advisory as
 * `newOutsideFix` says; one past its run-wide allowance is suppressed (`cap`).
 */
const placeFor = (
  context: AdmissionContext,
  rule: SeverityRule,
  count: number,
  c: Identified['candidate'],
): Kept => {
  const { policy, round } = context;
  if (rule.firstRoundOnly && round > 1) return { as: 'suppressed', reason: 'late' };
  if (rule.untilRound !== undefined && round > rule.untilRound)
    return { as: 'deferred', reason: 'until-round' };
  const outside = round >= 2 && context.touched !== undefined && !context.touched(c.file);
  const outsideRule = outside ? newOutsideFixOf(policy) : 'admit';
  if (outsideRule === 'defer') return { as: 'deferred', reason: 'outside-fix' };
  if (rule.maxAdmitted !== null && count >= rule.maxAdmitted) return { as: 'suppressed', reason: 'cap' };
  return { as: 'finding', advisory: outsideRule === 'advisory' };
};

/**
 * The severity policy decides admission, in report order (`placeFor`). Suppressed and deferred
 * candidates stay on the record; they just never become findings, and a deferred one keeps its
 * evidence and reviewers for the follow-up it is deferred to.
 */
export const admitCandidates = (
  context: AdmissionContext,
  candidates: ReadonlyArray<Identified>,
): Admission => {
  const { policy, round } = context;
  const admitted: Record<string, number> = { ...context.alreadyAdmitted };
  const opened: Finding[] = [];
  const suppressed: Suppressed[] = [];
  const deferred: Deferred[] = [];
  for (const identified of candidates) {
    const { candidate: c, id } = identified;
    const rule = policy.severities[c.severity];
    if (rule === undefined) continue; // unreachable: candidates are checked against the policy first
    const count = admitted[c.severity] ?? 0;
    const kept = placeFor(context, rule, count, c);
    if (kept.as === 'suppressed') {
      suppressed.push({
        id,
        round,
        ...placeOf(c),
        severity: c.severity,
        summary: c.summary,
        reason: kept.reason,
      });
      continue;
    }
    if (kept.as === 'deferred') {
      deferred.push({
        ...heldOf(identified, round),
        evidence: c.evidence,
        reviewers: context.reviewersOf?.(id) ?? [],
        reason: kept.reason,
      });
      continue;
    }
    admitted[c.severity] = count + 1;
    const advisory = kept.advisory || (context.advisory?.(c) ?? false);
    opened.push({
      id,
      ...placeOf(c),
      category: c.category,
      summary: c.summary,
      severity: c.severity,
      evidence: c.evidence,
      principle: c.principle ?? null,
      reproduction: c.reproduction ?? null,
      blocking: blocksFor(policy, c.severity, c.category) && !advisory,
      status: 'open',
      openedRound: round,
      steps: vecOf([{ round, how: 'opened', status: 'open' } as const]),
      ...(c.verdict === 'confirmed' || c.verdict === 'plausible' ? { verdict: c.verdict } : {}),
    });
  }
  return { opened, suppressed, deferred, admitted };
};
