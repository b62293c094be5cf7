/**
 * The one error type of the domain: every rule that refuses something says so with a stable `code`
 * from this closed union, a message naming the field and what would be accepted, and a `path` into
 * the offered report or event. The CLI maps codes to exit statuses in one table.
 */
export const REJECTION_CODES = [
  // the run's lifecycle
  'not-opened',
  'already-opened',
  'unknown-event',
  'invalid-policy',
  'run-final',
  // binding a report to its run, round and input
  'wrong-round',
  'no-revision',
  'wrong-run',
  'wrong-input',
  'not-completed',
  'inconsistent-event',
  'unchanged-input',
  'same-input-limit',
  'invalid-report',
  'invalid-text',
  'over-limit',
  // identities checked at the door (a path, a name), for new input only: never in a log's replay
  'invalid-path',
  'invalid-actor',
  // candidates (and the fields of a capture)
  'unconfirmed',
  'empty-field',
  'empty-evidence',
  'invalid-line',
  'invalid-move',
  'unknown-severity',
  'duplicate-candidate',
  'existing-finding',
  'citation-unresolved',
  // decisions
  'unknown-finding',
  'ambiguous-id',
  'closed-finding',
  'not-reopenable',
  'stale-evidence',
  'untouched-decision',
  'duplicate-decision',
  'missing-decision',
  // the author's disputes, and the round that must rule on them
  'disputes-off',
  'duplicate-dispute',
  'review-begun',
  'undecided-dispute',
  // the report as a whole
  'missing-not-examined',
  'verdict-mismatch',
  'missing-principle',
  // the lifecycle of a round: stages, budget, consent, results
  'unknown-stage',
  'stage-out-of-order',
  'stage-repeated',
  'stage-not-started',
  'no-consent',
  'over-budget',
  'invalid-cost',
  'budget-exhausted',
  'stages-unfinished',
  // a round from several reviewers: contributions, absences, the merge
  'duplicate-contribution',
  'no-contributions',
  'merge-mismatch',
  // a reviewer the policy expects is unaccounted for (`expert` is the code's stored spelling)
  'expert-unaccounted',
  'absent-reviewer',
  // re-reviews re-run the last review's reproductions first
  'no-reproduction',
  'duplicate-reproduction',
  'reproduction-still-fails',
  // the project's CI checks, under a policy that requires some
  'missing-check',
  'checks-not-recorded',
  // decisions only a person makes, past the cap
  'not-blocked',
  'invalid-extension',
  'unsigned-ruling',
] as const;

export type RejectionCode = (typeof REJECTION_CODES)[number];

export type Path = ReadonlyArray<string | number>;

import type { NextStep } from './next-step.js';

export type { NextStep } from './next-step.js';

export type Rejection = Readonly<{
  code: RejectionCode;
  message: string;
  path: Path;
  /** machine-readable particulars where the message lists things (the matches of an ambiguous id) */
  details?: Readonly<Record<string, unknown>>;
  /** the step that would move the run on instead, which each door names in its own words */
  next?: NextStep;
}>;

export const rejection = (
  code: RejectionCode,
  message: string,
  path: Path = [],
  details?: Readonly<Record<string, unknown>>,
  next?: NextStep,
): Rejection => ({
  code,
  message,
  path,
  ...(details === undefined ? {} : { details }),
  ...(next === undefined ? {} : { next }),
});

/** `candidates[2].line`: the form messages and the CLI print. */
export const formatPath = (path: Path): string =>
  path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out === '' ? key : `${out}.${key}`),
    '',
  );
