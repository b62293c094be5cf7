import type { CitationCheck } from '../../events/event.js';
import { citationsRequired, type Policy } from '../../events/policy.js';
import type { Candidate } from '../../events/round-report.js';
import { citationOf, placeOf } from '../citation.js';
import { type Check, fail, ok } from './rule-answer.js';

const citedBy = (c: Candidate): string => citationOf(placeOf(c));

/**
 * Under a policy that requires it, every candidate's citation must have been resolved at the
 * captured revision (the record path does that with git) and must point at something.
 */
export const citationsResolve = (
  policy: Policy,
  candidates: ReadonlyArray<Candidate>,
  citations: ReadonlyArray<CitationCheck> | undefined,
): Check => {
  if (!citationsRequired(policy)) return ok;
  for (const [i, candidate] of candidates.entries()) {
    const cited = citedBy(candidate);
    const check = citations?.find((c) => c.candidate === i);
    const at = ['candidates', i, candidate.line === undefined ? 'section' : 'line'];
    if (check === undefined || check.citation !== cited) {
      return fail(
        'citation-unresolved',
        `candidates[${i}] cites ${cited}, which was not resolved against the captured revision; policy ${policy.name} requires every citation to resolve (capture with --repo so clearance can read the cited file)`,
        at,
      );
    }
    if (!check.resolved) {
      return fail(
        'citation-unresolved',
        `candidates[${i}] cites ${cited}, which resolves to nothing: ${check.reason ?? 'no reason given'}`,
        at,
      );
    }
  }
  return ok;
};
