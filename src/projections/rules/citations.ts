import type { CitationCheck } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import { citationsRequired } from '../../events/policy.js';
import type { Candidate } from '../../events/report-types.js';
import { citationOf, placeOf } from '../citation.js';
import type { Run } from '../state.js';
import { type Check, fail, ok } from './rule-answer.js';

const citedBy = (c: Candidate): string => citationOf(placeOf(c));

/**
 * Under a policy that requires it, every candidate's citation must have been resolved at the
 * captured revision (the record path does that with git) and must point at something.
 */
export const citationsResolve = (
  { runId, policy }: Run,
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
        `candidates[${i}] cites ${cited}, which was not resolved against the captured revision; policy ${policy.name} requires every citation to resolve: capture the input from its repository, so the cited file can be read`,
        at,
        undefined,
        stepTo('capture', runId, { repo: true }),
      );
    }
    if (!check.resolved) {
      return fail(
        'citation-unresolved',
        `candidates[${i}] cites ${cited}, which resolves to nothing: ${check.reason ?? 'no reason given'}`,
        at,
        undefined,
        stepTo('record', runId),
      );
    }
  }
  return ok;
};
