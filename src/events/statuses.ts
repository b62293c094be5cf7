// The closed word lists of a round report, kept apart from its zod schema (report.ts) so that the
// rules and views that name them do not load zod: `clearance status` never parses a report.

/** What a report may decide about an existing open finding. */
export const DECISION_STATUSES = ['fixed', 'open', 'withdrawn'] as const;

/** Where a run stands, as derived by the fold and as a report may state it. */
export const VERDICTS = ['open', 'converged', 'blocked'] as const;
