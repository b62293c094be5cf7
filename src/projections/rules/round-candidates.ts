import * as E from '#either';
import type { RevisionCapturedData } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import { type Findings, lookUp, putFinding } from '../finding-index.js';
import type { Finding, Refuted, RunState } from '../state.js';
import { heldOf, type Identified } from './candidates.js';
import type { Merge } from './merge.js';
import { refutedBefore } from './refuted-before.js';
import { fail } from './rule-answer.js';

// What a round does with the candidates that open no finding: the refuted ones and the ones
// refuted before (kept on the record) and the ones linked `sameAs` to an open finding (which they
// corroborate).

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
      return {
        ...heldOf(identified, round),
        by: why.by,
        evidence: why.evidence,
        claim: identified.candidate.evidence,
      };
    });

/**
 * The round's candidates that repeat a refutation, as the records they are kept as: by the
 * reviewers who offered them again, naming the earlier round and evidence. (A merge keeps them out
 * of its groups, so none of them absorbed another candidate: nothing is lost with them.)
 */
export const heldAsRefutedBefore = (
  state: RunState,
  capture: RevisionCapturedData,
  round: number,
  offered: ReadonlyArray<Identified>,
  merge: Merge | null,
  reviewers: ReadonlyArray<string>,
): ReadonlyArray<Refuted> =>
  offered.flatMap((identified) => {
    const provenance = merge?.provenance[identified.id];
    const earlier = refutedBefore(state, capture, identified);
    if (earlier === null) return [];
    return [
      {
        ...heldOf(identified, round),
        by: provenance?.reviewers ?? reviewers,
        evidence: earlier.evidence,
        claim: identified.candidate.evidence,
        before: { round: earlier.round, how: earlier.how },
      },
    ];
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
