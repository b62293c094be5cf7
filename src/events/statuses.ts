// The closed word lists of a round report, kept apart from its zod schema (report.ts) so that the
// rules and views that name them do not load zod: `clearance status` never parses a report.

/** What a report may decide about an existing open finding (and what a policy may allow untouched). */
export const OPEN_FINDING_DECISIONS = ['fixed', 'open', 'withdrawn'] as const;

/**
 * Every decision a report may make: the rulings on an open finding, and `reopened`, which turns a
 * `fixed` finding open again under its own id when the fix did not hold (with evidence of what changed).
 */
export const DECISION_STATUSES = [...OPEN_FINDING_DECISIONS, 'reopened'] as const;

/** Where a run stands, as derived by the fold and as a report may state it: its verdict. */
export const VERDICTS = ['open', 'converged', 'blocked'] as const;

/**
 * A candidate's assessment, what a verifier rules on it: confirmed and plausible count (the policy
 * says whether plausible blocks), refuted is dropped and kept on the record. Ordered weakest first,
 * so the strongest of several rulings is the last one here (rules/verification.ts). A candidate
 * and a verification hold it in their field `verdict`, the stored spelling; in every other name
 * "verdict" is a run's status.
 */
export const ASSESSMENTS = ['refuted', 'plausible', 'confirmed'] as const;
