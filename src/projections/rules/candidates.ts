import * as E from '#either';
import { findingId } from '../../events/finding-id.js';
import type { Policy } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import type { Candidate } from '../../events/report-types.js';
import { placeOf } from '../citation.js';
import { lookUp } from '../finding-index.js';
import type { HeldCandidate, RunState } from '../state.js';
import { namedFinding } from './finding-ref.js';
import { refutedBefore } from './refuted-before.js';
import { fail, isBlank, shortId } from './rule-answer.js';

export type Identified = Readonly<{ candidate: Candidate; id: string; index: number }>;

/** What a candidate of `round` keeps of itself when it is held out of the findings (deferred, refuted). */
export const heldOf = ({ candidate: c, id }: Identified, round: number): HeldCandidate => ({
  id,
  round,
  ...placeOf(c),
  category: c.category,
  severity: c.severity,
  summary: c.summary,
});

const REQUIRED_TEXT = ['file', 'category', 'summary'] as const;

const candidateIsWellFormed = (c: Candidate, i: number, policy: Policy): E.Either<Rejection, void> => {
  const at = (field: string) => ['candidates', i, field];
  if (c.verdict !== undefined && c.confirmed !== undefined) {
    return fail(
      'unconfirmed',
      `candidates[${i}] has both confirmed and verdict: give confirmed: true (the seed form) or a verifier's assessment in verdict (confirmed, plausible or refuted), not both`,
      at('confirmed'),
    );
  }
  if (c.verdict === undefined && c.confirmed !== true) {
    return fail(
      'unconfirmed',
      `candidates[${i}] is not confirmed: give confirmed: true, or a verifier's assessment in verdict (confirmed, plausible or refuted)`,
      at('confirmed'),
    );
  }
  for (const field of REQUIRED_TEXT) {
    if (isBlank(c[field]))
      return fail('empty-field', `candidates[${i}].${field} is empty: it must name the ${field}`, at(field));
  }
  if (isBlank(c.evidence)) {
    return fail(
      'empty-evidence',
      `candidates[${i}].evidence is empty: say why this is a real finding`,
      at('evidence'),
    );
  }
  if (c.line === undefined) {
    if (c.section === undefined || isBlank(c.section)) {
      return fail(
        'invalid-line',
        `candidates[${i}] cites no location: give a line (an integer >= 1) or, in a document, a section (a heading)`,
        at('line'),
      );
    }
  } else if (!Number.isInteger(c.line) || c.line < 1) {
    return fail('invalid-line', `candidates[${i}].line is ${c.line}: a line is an integer >= 1`, at('line'));
  }
  if (
    policy.principleCategories.includes(c.category) &&
    (c.principle === undefined || isBlank(c.principle))
  ) {
    return fail(
      'missing-principle',
      `candidates[${i}] is a ${c.category} finding with no principle: under policy ${policy.name} it must name the principle it rests on`,
      at('principle'),
    );
  }
  if (!Object.hasOwn(policy.severities, c.severity)) {
    const known = Object.keys(policy.severities).join(', ');
    return fail(
      'unknown-severity',
      `candidates[${i}].severity ${JSON.stringify(c.severity)} is not a severity of policy ${policy.name} (known: ${known})`,
      at('severity'),
    );
  }
  return E.right(undefined);
};

/** `sameAs` names an open finding of the run: a closed one comes back only by a decision. */
const linkedFinding = (state: RunState, ref: string, index: number): E.Either<Rejection, void> => {
  const path = ['candidates', index, 'sameAs'];
  const named = namedFinding(state.findings, ref, `candidates[${index}].sameAs`, path);
  if (E.isLeft(named)) return named;
  if (named.right.status !== 'open') {
    return fail(
      'closed-finding',
      `candidates[${index}].sameAs names finding ${shortId(named.right.id)}, which is ${named.right.status}: a candidate may only corroborate an open finding`,
      path,
    );
  }
  return E.right(undefined);
};

/**
 * A candidate that repeats a withdrawn finding on unchanged code with nothing new to say is not a
 * finding offered again: the round keeps it on the record as refuted before (rules/refuted-before.ts).
 */
const repeatsWithdrawal = (state: RunState, identified: Identified): boolean =>
  lookUp(state.findings, identified.id)?.status === 'withdrawn' &&
  state.capture !== null &&
  refutedBefore(state, state.capture, identified) !== null;

/**
 * Every candidate must be confirmed (or carry an assessment), complete and new: an id seen twice in one
 * report, or one that already exists in the run (address those by id, in `decisions`, or link to
 * an open one with `sameAs`), refuses the whole report; except the repetition of a withdrawn
 * finding on unchanged code, which is kept as refuted before.
 */
export const identifyCandidates = (
  state: RunState,
  policy: Policy,
  candidates: ReadonlyArray<Candidate>,
): E.Either<Rejection, ReadonlyArray<Identified>> => {
  const seen = new Map<string, number>();
  const identified: Identified[] = [];
  for (const [index, candidate] of candidates.entries()) {
    const wellFormed = candidateIsWellFormed(candidate, index, policy);
    if (E.isLeft(wellFormed)) return wellFormed;
    const id = findingId(candidate);
    const twin = seen.get(id);
    if (twin !== undefined) {
      return fail(
        'duplicate-candidate',
        `candidates[${index}] repeats candidates[${twin}] (same file, category and summary, id ${shortId(id)})`,
        ['candidates', index],
      );
    }
    if (candidate.sameAs !== undefined) {
      const linked = linkedFinding(state, candidate.sameAs, index);
      if (E.isLeft(linked)) return linked;
    }
    const existing = candidate.sameAs === undefined ? lookUp(state.findings, id) : undefined;
    if (existing !== undefined && !repeatsWithdrawal(state, { candidate, id, index })) {
      return fail(
        'existing-finding',
        `candidates[${index}] is finding ${shortId(id)}, which already exists (${existing.status}): address it by id in decisions${existing.status === 'fixed' ? ' (a fix that did not hold: decide it reopened, with evidence)' : ''}`,
        ['candidates', index],
      );
    }
    seen.set(id, index);
    identified.push({ candidate, id, index });
  }
  return E.right(identified);
};
