import * as E from '#either';
import type { Rejection } from '../../events/rejection.js';
import { type Findings, lookUp, putFinding } from '../finding-index.js';
import type { Finding, Refuted } from '../state.js';
import { heldOf, type Identified } from './candidates.js';
import type { Merge } from './merge.js';
import { fail } from './rule-answer.js';

// What a round does with the candidates that open no finding: the refuted ones (kept on the
// record) and the ones linked `sameAs` to an open finding (which they corroborate).

/**
 * The round's refuted candidates: never findings, kept on the record with who refuted them and why
 * (from the merge: the verifiers' rulings; in a single report: its own evidence).
 */
export const refutedIn = (
  round: number,
  candidates: ReadonlyArray<Identified>,
  merge: Merge | null,
  reviewer: string,
): ReadonlyArray<Refuted> =>
  candidates
    .filter(({ candidate: c }) => c.verdict === 'refuted')
    .map((identified) => {
      const why = merge?.refuted[identified.id] ?? {
        by: [reviewer],
        evidence: identified.candidate.evidence,
      };
      return { ...heldOf(identified, round), by: why.by, evidence: why.evidence };
    });

/**
 * A candidate linked by `sameAs` opens nothing: it corroborates the finding it names, which lists
 * it in `mergedFrom` with its reviewer (and the reviewer among its `reviewers`).
 */
export const linkCorroborations = (
  findings: Findings,
  linked: ReadonlyArray<Identified>,
  merge: Merge | null,
  reviewer: string,
): Findings => {
  let next = findings;
  for (const { candidate: c, id } of linked) {
    const target = lookUp(next, c.sameAs as string) as Finding;
    const by = merge?.provenance[id]?.reviewers ?? [reviewer];
    const absorbed = merge?.provenance[id]?.mergedFrom ?? [];
    next = putFinding(next, {
      ...target,
      reviewers: [...new Set([...(target.reviewers ?? []), ...by])].sort(),
      mergedFrom: [
        ...(target.mergedFrom ?? []),
        { id, reviewer: by.join(', '), file: c.file, line: c.line ?? null, category: c.category },
        ...absorbed,
      ],
    });
  }
  return next;
};

/** A candidate cannot say a finding is still there while the same round decides it fixed or withdrawn. */
export const linkedStayOpen = (
  findings: Findings,
  linked: ReadonlyArray<Identified>,
): E.Either<Rejection, void> => {
  for (const { candidate: c, index } of linked) {
    const f = lookUp(findings, c.sameAs as string) as Finding;
    if (f.status !== 'open') {
      return fail(
        'closed-finding',
        `candidates[${index}].sameAs names finding ${f.id.slice(0, 12)}, which this round decides ${f.status}: a candidate may only corroborate a finding that stays open`,
        ['candidates', index, 'sameAs'],
      );
    }
  }
  return E.right(undefined);
};
