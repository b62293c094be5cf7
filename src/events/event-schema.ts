import * as z from 'zod';
import { CHECK_STATES } from './codecs/checks-recorded-v1.js';
import { ABSENCE_REASONS } from './codecs/contribution-recorded-v1.js';
import { FAILURE_REASONS } from './codecs/events-v1.js';
import { REPRODUCTION_OUTCOMES } from './codecs/reproduction-recorded-v1.js';
import { PolicySchema } from './policy-schema.js';
import { RecordedCostSchema, ReportSchema } from './round-report.js';

/**
 * One log line, described in zod for `clearance schema event`: readers of the log in other
 * languages get a JSON Schema of every event at its latest version. The io-ts codecs in `codecs/`
 * remain what clearance decodes with; a test checks that every line clearance writes validates here.
 */
const envelope = <T extends string, D extends z.ZodType>(type: T, v: number, data: D) =>
  z.strictObject({
    seq: z.number().int().min(1).describe('1, 2, 3 … with no gaps'),
    type: z.literal(type),
    v: z.literal(v).describe('the version of this event type the line was written with'),
    at: z.string().describe('ISO 8601 time of the append (audit only; the fold never reads it)'),
    by: z.string().describe('who appended (audit only; the fold never reads it)'),
    prev: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe("SHA-256 (hex) of the previous line's bytes, 64 zeros for the first"),
    data,
  });

const Rename = z.strictObject({ from: z.string(), to: z.string() });

/** A person's signature on a ruling or an extension, under a policy that pins signers (v2 of both). */
const RulingSignature = z
  .strictObject({
    keyid: z.string().describe('the SSH fingerprint of the key that signed it (SHA256:…)'),
    sig: z.string().describe('the Ed25519 signature, base64'),
    follows: z.string().describe('the SHA-256 of the log line the event follows'),
  })
  .describe('under a policy that pins signers: the signature of the principal named by by');

export const EventLineSchema = z
  .discriminatedUnion('type', [
    envelope(
      'run.opened',
      2,
      z.strictObject({
        runId: z.string(),
        policy: PolicySchema,
        subject: z.strictObject({ repo: z.string().optional(), artifact: z.string().optional() }),
        consent: z.strictObject({ by: z.string(), commands: z.array(z.string()).optional() }),
      }),
    ),
    envelope(
      'revision.captured',
      2,
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        touchedFiles: z.array(z.string()),
        renames: z.array(Rename),
        commit: z.string().optional(),
        tree: z.string().optional(),
        dirty: z.boolean().optional(),
        artifactSha: z.string().optional(),
        base: z.string().optional(),
        sameInput: z
          .strictObject({ reason: z.string() })
          .optional()
          .describe('a recorded choice to review again the input the round before reviewed, and why'),
      }),
    ),
    envelope(
      'round.recorded',
      4,
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        reportSha: z.string().describe("SHA-256 of the report's RFC 8785 canonical JSON"),
        report: ReportSchema,
        result: z
          .enum(['complete', 'partial'])
          .describe('partial: the budget ran out or an expert handed in nothing'),
        citations: z
          .array(
            z.strictObject({
              candidate: z.number().int(),
              citation: z.string(),
              resolved: z.boolean(),
              reason: z.string().optional(),
            }),
          )
          .optional(),
      }),
    ),
    envelope(
      'round.failed',
      1,
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        reason: z.enum(FAILURE_REASONS),
        detail: z.string(),
      }),
    ),
    envelope(
      'stage.started',
      1,
      z.strictObject({
        round: z.number().int(),
        stage: z.string(),
        commands: z.array(z.string()),
        estimate: RecordedCostSchema.optional(),
      }),
    ),
    envelope(
      'stage.finished',
      1,
      z.strictObject({
        round: z.number().int(),
        stage: z.string(),
        outputSha: z.string().describe('SHA-256 of the output, archived at <dir>/runs/<runId>/objects/<sha>'),
        cost: RecordedCostSchema,
        runner: z.string(),
      }),
    ),
    envelope(
      'stage.failed',
      1,
      z.strictObject({
        round: z.number().int(),
        stage: z.string(),
        reason: z.string(),
        cost: RecordedCostSchema,
        runner: z.string(),
      }),
    ),
    envelope(
      'round.ended',
      1,
      z.strictObject({
        round: z.number().int(),
        result: z.enum(['none', 'ci_failed', 'partial']),
        reason: z.string(),
      }),
    ),
    envelope(
      'finding.ruled',
      2,
      z.strictObject({
        findingId: z.string(),
        status: z.enum(['fixed', 'withdrawn']),
        why: z.string(),
        by: z.string(),
        signature: RulingSignature.optional(),
      }),
    ),
    envelope(
      'rounds.extended',
      2,
      z.strictObject({
        rounds: z.number().int(),
        why: z.string(),
        by: z.string(),
        signature: RulingSignature.optional(),
      }),
    ),
    envelope(
      'contribution.recorded',
      3,
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        reportSha: z.string().describe("SHA-256 of the report's RFC 8785 canonical JSON"),
        report: ReportSchema,
        expert: z.string().optional().describe('the reviewer; absent for an anonymous contribution'),
      }),
    ),
    envelope(
      'contribution.absent',
      1,
      z.strictObject({
        round: z.number().int(),
        inputSha: z.string(),
        expert: z.string(),
        reason: z.enum(ABSENCE_REASONS),
        detail: z.string(),
      }),
    ),
    envelope(
      'reproduction.recorded',
      1,
      z.strictObject({
        round: z.number().int().describe('the round in progress, whose input the reproduction ran on'),
        inputSha: z.string(),
        findingId: z.string().describe('the full id of a finding that carries a reproduction'),
        outcome: z.enum(REPRODUCTION_OUTCOMES),
        outputSha: z
          .string()
          .optional()
          .describe('SHA-256 of what the reproduction printed, archived under the run'),
      }),
    ),
    envelope(
      'checks.recorded',
      1,
      z.strictObject({
        round: z.number().int().describe('the round in progress, whose captured input the checks ran on'),
        inputSha: z.string(),
        checks: z
          .array(
            z.strictObject({
              name: z.string().describe('the check as CI names it'),
              state: z.enum(CHECK_STATES),
              url: z.string().optional().describe("the check's page (its log), an http(s) URL"),
            }),
          )
          .describe('every check CI reported on that input, as it finished'),
      }),
    ),
    envelope(
      'finding.disputed',
      1,
      z.strictObject({
        findingId: z.string().describe('the full id of an open finding'),
        round: z
          .number()
          .int()
          .describe('the round in progress when the author disputed it: the round that must rule on it'),
        reason: z.string().describe("the author's one line of reasoning: why the finding is wrong"),
      }),
    ),
  ])
  .describe('one line of a clearance run log (<dir>/runs/<runId>.jsonl)');

export const eventJsonSchema = (): Record<string, unknown> =>
  z.toJSONSchema(EventLineSchema, { io: 'input' }) as Record<string, unknown>;
