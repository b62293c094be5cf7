import * as z from 'zod';
import * as E from '#either';
import { ACTOR_NAME_MAX, ACTOR_NAME_PATTERN } from './actor-name.js';
import type { SameShape } from './codecs/same-shape.js';
import { parseCompiledReport } from './compiled-report.js';
import { ONE_LINE_PATTERN } from './one-line.js';
import { type Rejection, type RejectionCode, rejection } from './rejection.js';
import { REPO_PATH_PATTERN } from './repo-path.js';
import { REPORT_LIMITS } from './report-limits.js';
import {
  actorNameText,
  isActorName,
  isCandidateFile,
  isOneLine,
  isRepoPath,
  isWellFormed,
  LONE_SURROGATE_TEXT,
  oneLineText,
  repoPathText,
} from './report-text.js';
import type { RoundReport } from './report-types.js';
import { describeIssues } from './schema-issues.js';
import { ASSESSMENTS, DECISION_STATUSES, VERDICTS } from './statuses.js';
import { isTokenCount, tokenCountText } from './token-count.js';

export { REPORT_LIMITS } from './report-limits.js';
export { ASSESSMENTS, DECISION_STATUSES, OPEN_FINDING_DECISIONS, VERDICTS } from './statuses.js';

/**
 * The codes a field's own check refuses with (its issue carries `params: { code }`), rather than
 * `invalid-report`: text that is not Unicode or breaks its line, a path that is no repository
 * path, a name that is no name, a token count that is no whole number.
 */
const FIELD_CODES = [
  'invalid-text',
  'invalid-path',
  'invalid-actor',
  'invalid-cost',
] as const satisfies ReadonlyArray<RejectionCode>;
type FieldCode = (typeof FIELD_CODES)[number];

const isFieldCode = (code: unknown): code is FieldCode =>
  (FIELD_CODES as ReadonlyArray<unknown>).includes(code);

/**
 * A string field: at most `max` characters, and well-formed Unicode. A lone surrogate has no UTF-8
 * form and no RFC 8785 canonical JSON, so the report could not be hashed or stored as sent.
 */
const text = (max: number) =>
  z
    .string()
    .max(max)
    .refine(isWellFormed, { message: LONE_SURROGATE_TEXT, params: { code: 'invalid-text' } });

/**
 * A door check on a string (`repo-path.ts`, `one-line.ts`, `actor-name.ts`, through report-text.ts):
 * the field refused with `code` and a message quoting the value escaped, and its `pattern`
 * published in the JSON Schema. It judges new input only: a log's events are decoded by io-ts and
 * judged by the rules, so a log written before these checks replays unchanged.
 */
const checked =
  (holds: (value: string) => boolean, message: (value: string) => string, code: FieldCode, pattern: string) =>
  <S extends z.ZodString>(schema: S): S =>
    schema
      .refine(holds, { error: (issue) => message(issue.input as string), params: { code } })
      .meta({ pattern });

const asRepoPath = checked(isRepoPath, repoPathText, 'invalid-path', REPO_PATH_PATTERN);
// an empty file is left to the candidate rule, which has refused it as `empty-field` since v1
const asCandidateFile = checked(isCandidateFile, repoPathText, 'invalid-path', REPO_PATH_PATTERN);
const asOneLine = checked(isOneLine, oneLineText, 'invalid-text', ONE_LINE_PATTERN);

/**
 * A person's or reviewer's name (`actor-name.ts`). Its length is part of the name's grammar
 * (`invalid-actor`, not `over-limit`), so the bound is published as `maxLength` beside the pattern
 * rather than checked by zod's `max`. A lone surrogate is `invalid-text`, as in every string of a report.
 */
const actorName = () =>
  z
    .string()
    .refine(isWellFormed, { message: LONE_SURROGATE_TEXT, params: { code: 'invalid-text' } })
    .refine(isActorName, {
      error: (issue) => actorNameText(issue.input as string),
      params: { code: 'invalid-actor' },
    })
    .meta({ maxLength: ACTOR_NAME_MAX, pattern: ACTOR_NAME_PATTERN });

/** Numbers are exact: beyond 2^53 JSON parsers silently round (9007199254740993 reads as ...992). */
const safeNumber = () => z.number().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/**
 * A count of tokens, checked at the door (`token-count.ts`): a whole number >= 0, refused
 * `invalid-cost` naming the field. Published as a JSON Schema integer with its minimum.
 */
const tokenCount = () =>
  safeNumber()
    .refine(isTokenCount, {
      error: (issue) => tokenCountText(issue.input as number),
      params: { code: 'invalid-cost' },
    })
    .meta({ type: 'integer', minimum: 0 });

const costOf = (tokens: z.ZodType<number>, what: string) =>
  z
    .strictObject({
      tokens: tokens.optional().describe(`tokens, ${what}`),
      usd: safeNumber().optional().describe('money in US dollars, a number >= 0'),
      seconds: safeNumber().optional().describe('wall-clock seconds, a number >= 0'),
    })
    .describe('an amount in tokens, usd and seconds; a unit absent is nothing');

/**
 * An amount spent or allowed as it comes in (a report's cost, a stage's, a policy's budget): its
 * shape, the one zod description of it. That `tokens` is a whole number is checked here, at the
 * door, for new input only; that each amount is finite and >= 0 is a rule (`costIsReal`,
 * rules/cost-bounds.ts).
 */
export const CostSchema = costOf(tokenCount(), 'a whole number >= 0');

/**
 * An amount as a log holds it and an output prints it: a log written before the door checked
 * `tokens` may hold 1.5 of them, and what is read back from it is described as it is.
 */
export const RecordedCostSchema = costOf(safeNumber(), 'a number >= 0 (a whole one in what is recorded now)');

/**
 * The report's schemas, built on first use and once: building zod's schema graph and its first
 * parse cost `record` a tenth of a bare Node start, and a well-formed report is parsed without them
 * by the parser zod's compiler made of this schema at build time (compiled-report.ts). Each is
 * exported as a `z.lazy` of the one built here, so it parses, describes itself and converts to JSON
 * Schema as the schema itself does.
 */
const build = () => {
  /**
   * The round report: what a reviewer hands in for one round. zod checks its *shape* here, at the
   * boundary (types, required keys, no unknown keys anywhere: a misspelt key is refused with its
   * path, never dropped). What the values must *mean* (line >= 1, a known severity, the right round)
   * is decided by the rules in `src/projections`, so one rule lives in one place.
   */
  const candidate = z
    .strictObject({
      file: asCandidateFile(text(REPORT_LIMITS.file)).describe(
        'path of the file the finding is about, relative to the repository root, with / between names (no ., .. or empty name, no backslash, scheme or control character)',
      ),
      line: safeNumber()
        .optional()
        .describe('1-based line number (an integer >= 1); give a line or a section'),
      section: asOneLine(text(REPORT_LIMITS.section))
        .optional()
        .describe('for a document artifact: the heading the finding is about, instead of a line'),
      category: asOneLine(text(REPORT_LIMITS.category)).describe(
        'what kind of finding this is, e.g. correctness, security, tests',
      ),
      summary: asOneLine(text(REPORT_LIMITS.summary)).describe('one sentence, one line: what is wrong'),
      severity: asOneLine(text(REPORT_LIMITS.severity)).describe(
        'a severity the run policy knows, e.g. major or nit under the default policy',
      ),
      confirmed: z
        .boolean()
        .optional()
        .describe('the seed form: true admits the candidate as confirmed; give this or verdict, not both'),
      verdict: z
        .enum(ASSESSMENTS)
        .optional()
        .describe(
          'the assessment, a verifier form instead of confirmed: confirmed or plausible count (the policy says whether plausible blocks), refuted is dropped and kept on the record',
        ),
      introducedByDiff: z
        .boolean()
        .optional()
        .describe(
          "false when the problem was there before the reviewed change: the finding takes the policy's non-blocking pre-existing severity",
        ),
      sameAs: text(REPORT_LIMITS.findingId)
        .optional()
        .describe(
          'the id (or a unique prefix of at least 8) of an open finding this candidate is: it corroborates that finding instead of opening a new one',
        ),
      evidence: text(REPORT_LIMITS.evidence).describe(
        'why this is a real finding: a failure scenario, a reproduction, a quote',
      ),
      principle: text(REPORT_LIMITS.principle)
        .optional()
        .describe(
          'the principle a design finding rests on (required for design findings under the standard policy)',
        ),
      reproduction: z
        .strictObject({
          command: text(REPORT_LIMITS.reproduction).describe('the command that shows the problem'),
          expected: text(REPORT_LIMITS.reproduction).describe('what it does while the problem is there'),
        })
        .optional()
        .describe('how to show the finding again: a re-review starts by re-running these'),
    })
    .describe('a new finding offered by the reviewer');

  const decision = z
    .strictObject({
      id: text(REPORT_LIMITS.findingId).describe(
        'the id of an existing open finding (or of a fixed one, to reopen it): all 64 hex characters, or a unique prefix of at least 8',
      ),
      status: z
        .enum(DECISION_STATUSES)
        .describe(
          'fixed, open or withdrawn for an open finding; reopened for a fixed finding whose fix did not hold',
        ),
      evidence: text(REPORT_LIMITS.evidence).describe(
        'why: what changed, why it still stands, or (reopened) what shows the fix did not hold',
      ),
    })
    .describe('a ruling on an existing open finding, or the reopening of a fixed one');

  /**
   * A verifier's ruling on a candidate of the round, named by its key (file, category, summary: the
   * finding id's inputs). The merge applies it to every matching candidate across the round's
   * contributions (src/projections/rules/verification.ts).
   */
  const verification = z
    .strictObject({
      file: asRepoPath(text(REPORT_LIMITS.file)).describe("the candidate's file, as its finder gave it"),
      category: asOneLine(text(REPORT_LIMITS.category)).describe("the candidate's category"),
      summary: asOneLine(text(REPORT_LIMITS.summary)).describe("the candidate's summary, exactly"),
      verdict: z
        .enum(ASSESSMENTS)
        .describe(
          "the verifier's assessment: confirmed or plausible keep the candidate, refuted drops it (kept on the record); the strongest of several wins",
        ),
      evidence: text(REPORT_LIMITS.evidence).describe(
        'why: what the verifier checked, a quote, a reproduction',
      ),
      severity: asOneLine(text(REPORT_LIMITS.severity))
        .optional()
        .describe('a severity of the policy: re-grades the candidate'),
      introducedByDiff: z
        .boolean()
        .optional()
        .describe("the verifier's word on whether the reviewed change introduced it"),
      correction: z
        .strictObject({
          file: asRepoPath(text(REPORT_LIMITS.file))
            .optional()
            .describe('the file it is in, when its finder named another (default: the same file)'),
          line: safeNumber().describe('the line it is at (an integer >= 1)'),
          evidence: text(REPORT_LIMITS.evidence).describe(
            'why it is there: the code quoted from that line, what the verifier checked',
          ),
        })
        .optional()
        .describe(
          "where the candidate really is, when its finder cited the wrong place: the finding opens there, keeping its finder's id and citation on the record",
        ),
    })
    .describe("a verifier's ruling on another contribution's candidate");

  const report = z
    .strictObject({
      runId: text(REPORT_LIMITS.runId).describe('the run this report belongs to'),
      round: safeNumber().describe('the round this report answers: the run round + 1'),
      inputSha: text(REPORT_LIMITS.inputSha).describe('the inputSha of the revision captured for this round'),
      completed: z.boolean().describe('true only when the review finished; anything else is refused'),
      candidates: z.array(candidate).max(REPORT_LIMITS.candidates).default([]),
      decisions: z.array(decision).max(REPORT_LIMITS.decisions).default([]),
      verifications: z
        .array(verification)
        .max(REPORT_LIMITS.candidates)
        .optional()
        .describe(
          "a verifier's rulings on candidates of the round's other contributions (clearance contribute)",
        ),
      verdict: z
        .enum(VERDICTS)
        .optional()
        .describe(
          "optional: the run's status (open, converged, blocked) the report declares; when present it must equal the one clearance derives",
        ),
      notExamined: z
        .array(text(REPORT_LIMITS.notExaminedItem))
        .max(REPORT_LIMITS.notExamined)
        .optional()
        .describe('what the reviewer did not look at, and why'),
      reviewer: actorName()
        .optional()
        .describe('who wrote the report: one line of printable text, at most 256 characters'),
      cost: CostSchema.optional().describe('what producing this report cost'),
    })
    .describe('clearance round report, v1');
  return { candidate, decision, verification, report };
};
let built: ReturnType<typeof build> | undefined;
const schemas = (): ReturnType<typeof build> => {
  built ??= build();
  return built;
};

export const CandidateSchema = z.lazy(() => schemas().candidate);
export const DecisionSchema = z.lazy(() => schemas().decision);
export const VerificationSchema = z.lazy(() => schemas().verification);
export const ReportSchema = z.lazy(() => schemas().report);

// the door's schema gives back exactly the report the log stores and the rules read
const _sameReport: SameShape<z.output<typeof ReportSchema>, RoundReport> = true;
const _sameStored: SameShape<RoundReport, z.output<typeof ReportSchema>> = true;
void _sameReport;
void _sameStored;

/** Which code an issue refuses with: over a bound, not Unicode text, or any other shape error. */
const codeOf = (issue: z.core.$ZodIssue): RejectionCode => {
  if (issue.code === 'too_big' && (issue.origin === 'string' || issue.origin === 'array'))
    return 'over-limit';
  const own: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
  if (isFieldCode(own)) return own;
  return 'invalid-report';
};

/** Validate untrusted input as a round report. Every issue is named in the message, the first in `path`. */
export const parseReport = (input: unknown): E.Either<Rejection, RoundReport> => {
  // zod's own value for a report it accepts, without building its schema graph
  const compiled = parseCompiledReport(input);
  if (compiled !== undefined) return E.right(compiled as RoundReport);
  const parsed = ReportSchema.safeParse(input, { reportInput: true });
  if (parsed.success) return E.right(parsed.data);
  const described = describeIssues(parsed.error.issues, 'report');
  const code = parsed.error.issues[0] === undefined ? 'invalid-report' : codeOf(parsed.error.issues[0]);
  return E.left(rejection(code, `invalid round report: ${described.text}`, described.path));
};

/** The report contract as JSON Schema, for producers in any language. */
export const reportJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(ReportSchema, { io: 'input' }) as Record<string, unknown>;
