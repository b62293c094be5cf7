import * as E from 'fp-ts/lib/Either.js';
import * as z from 'zod';
import { formatPath, type Rejection, rejection } from './rejection.js';
import { DECISION_STATUSES, VERDICTS } from './statuses.js';

export { DECISION_STATUSES, VERDICTS } from './statuses.js';

/**
 * The round report: what a reviewer hands in for one round. zod checks its *shape* here, at the
 * boundary (types, required keys, no unknown keys anywhere: a misspelt key is refused with its
 * path, never dropped). What the values must *mean* (line >= 1, a known severity, the right round)
 * is decided by the rules in `src/projections`, so one rule lives in one place.
 */
export const CandidateSchema = z
  .strictObject({
    file: z.string().describe('path of the file the finding is about, relative to the repository root'),
    line: z.number().optional().describe('1-based line number (an integer >= 1); give a line or a section'),
    section: z
      .string()
      .optional()
      .describe('for a document artifact: the heading the finding is about, instead of a line'),
    category: z.string().describe('what kind of finding this is, e.g. correctness, security, tests'),
    summary: z.string().describe('one sentence: what is wrong'),
    severity: z
      .string()
      .describe('a severity the run policy knows, e.g. major or nit under the default policy'),
    confirmed: z.boolean().describe('must be true: only confirmed candidates are admitted'),
    evidence: z.string().describe('why this is a real finding: a failure scenario, a reproduction, a quote'),
    principle: z
      .string()
      .optional()
      .describe(
        'the principle a design finding rests on (required for design findings under the standard policy)',
      ),
    reproduction: z
      .strictObject({
        command: z.string().describe('the command that shows the problem'),
        expected: z.string().describe('what it does while the problem is there'),
      })
      .optional()
      .describe('how to show the finding again: a re-review starts by re-running these'),
  })
  .describe('a new finding offered by the reviewer');

export const DecisionSchema = z
  .strictObject({
    id: z.string().describe('the id of an existing open finding (64 hex characters)'),
    status: z.enum(DECISION_STATUSES),
    evidence: z.string().describe('why: what changed, or why it still stands'),
  })
  .describe('a ruling on an existing open finding');

export const CostSchema = z
  .strictObject({
    tokens: z.number().int().nonnegative().optional(),
    usd: z.number().nonnegative().optional(),
    seconds: z.number().nonnegative().optional(),
  })
  .describe('what producing this report cost');

export const ReportSchema = z
  .strictObject({
    runId: z.string().describe('the run this report belongs to'),
    round: z.number().describe('the round this report answers: the run round + 1'),
    inputSha: z.string().describe('the inputSha of the revision captured for this round'),
    completed: z.boolean().describe('true only when the review finished; anything else is refused'),
    candidates: z.array(CandidateSchema).default([]),
    decisions: z.array(DecisionSchema).default([]),
    verdict: z
      .enum(VERDICTS)
      .optional()
      .describe('optional; when present it must equal the verdict clearance derives'),
    notExamined: z.array(z.string()).optional().describe('what the reviewer did not look at, and why'),
    reviewer: z.string().optional(),
    cost: CostSchema.optional(),
  })
  .describe('clearance round report, v1');

export type Candidate = z.output<typeof CandidateSchema>;
export type Decision = z.output<typeof DecisionSchema>;
export type DecisionStatus = Decision['status'];
export type Verdict = (typeof VERDICTS)[number];
export type RoundReport = z.output<typeof ReportSchema>;

const describeIssue = (issue: z.core.$ZodIssue): { path: Array<string | number>; text: string } => {
  const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const where = formatPath(path) || 'the report';
    return {
      path: [...path, key],
      text: `unknown key ${issue.keys.map((k) => JSON.stringify(k)).join(', ')} in ${where} (misspelt?)`,
    };
  }
  return { path, text: `${formatPath(path) || 'report'}: ${issue.message}` };
};

/** Validate untrusted input as a round report. Every issue is named in the message, the first in `path`. */
export const parseReport = (input: unknown): E.Either<Rejection, RoundReport> => {
  const parsed = ReportSchema.safeParse(input);
  if (parsed.success) return E.right(parsed.data);
  const issues = parsed.error.issues.map(describeIssue);
  const first = issues[0] ?? { path: [], text: 'not a round report' };
  const more =
    issues.length > 1
      ? ` (and ${issues.length - 1} more: ${issues
          .slice(1, 4)
          .map((i) => i.text)
          .join('; ')})`
      : '';
  return E.left(rejection('invalid-report', `invalid round report: ${first.text}${more}`, first.path));
};

/** The report contract as JSON Schema, for producers in any language. */
export const reportJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(ReportSchema, { io: 'input' }) as Record<string, unknown>;
