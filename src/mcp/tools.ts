import { DISPUTE_REASON_MAX } from '@clearance/fold/internal/events/dispute-reason.js';
import { PRESET_NAMES } from '@clearance/fold/internal/events/policy.js';
import { REPORT_LIMITS } from '@clearance/fold/internal/events/report-limits.js';
import { CostSchema, parseReport } from '@clearance/fold/internal/events/round-report.js';
import { isRunId } from '@clearance/fold/internal/events/run-id.js';
import * as E from 'fp-ts/lib/Either.js';
import * as z from 'zod';
import { ClearanceError, isClearanceError, refusal } from '../errors.js';
import { capture } from '../operations/capture.js';
import { checks } from '../operations/checks.js';
import type { OperationContext } from '../operations/context.js';
import { dispute } from '../operations/dispute.js';
import { feedback } from '../operations/feedback.js';
import { gate } from '../operations/gate.js';
import { boundBytes, INPUT_BOUNDS } from '../operations/input-bounds.js';
import { open } from '../operations/open.js';
import { type RoundSource, record } from '../operations/record.js';
import { wait } from '../operations/reports.js';
import { reproduce } from '../operations/reproduce.js';
import { explain, findings, may, next } from '../operations/run-views.js';
import { status } from '../operations/status.js';

/**
 * The tools `clearance mcp` offers: each is one operation, its arguments described in zod (checked
 * by the server before a tool runs, `call-tool.ts`) and mapped to the operation's typed input; its
 * answer is the operation's result, as `clearance <command> --json` prints it. No argument becomes a
 * command-line flag, and none can name a store, an actor or a lock timeout: those are the server's,
 * from its own start-up. `rule` and `extend` are not here: only a named person rules on a finding
 * or adds rounds, never an agent. Each description says when in the loop to call the tool and what
 * it answers: an agent pays for every byte of the list in every session (`tool-list.ts`).
 */
export const TOOL_NAMES = [
  'open',
  'capture',
  'status',
  'next',
  'may',
  'record',
  'reproduce',
  'checks',
  'dispute',
  'wait',
  'findings',
  'explain',
  'feedback',
  'gate',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export type Tool = Readonly<{
  name: ToolName;
  description: string;
  input: z.ZodObject;
  /** an argument listed by a JSON Schema of its own, where zod only checks that it is an object */
  listed?: Readonly<Record<string, 'report'>>;
  call: (ctx: OperationContext, args: Record<string, unknown>) => Promise<object>;
}>;

/** A tool from its schema and its mapping: the arguments arrive typed as the input schema says. */
const tool = <I extends z.ZodObject>(
  definition: Readonly<{
    name: ToolName;
    description: string;
    input: I;
    listed?: Readonly<Record<string, 'report'>>;
    call: (ctx: OperationContext, args: z.output<I>) => Promise<object>;
  }>,
): Tool => definition as unknown as Tool;

const runId = z
  .string()
  .refine(isRunId, {
    message: 'a run id is 1-128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit, without ..',
    params: { code: 'invalid-run-id' },
  })
  .describe('e.g. pr-236');

/**
 * A file the server reads or waits on: a path, never a URL. A `postgres://` string here would make
 * the server connect where the agent chose and hand it the server's credentials; the server waits
 * only for files, and keeps to the store it was started with.
 */
const filePath = z
  .string()
  .min(1)
  .max(INPUT_BOUNDS.path)
  .refine((s) => !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s), {
    message: 'a file path, not a URL: the server reads and waits on files only',
  });

const subject = {
  repo: filePath.optional().describe('git repository (default: the run subject)'),
  artifact: filePath.optional().describe('document file, instead of repo'),
};
const named = {
  inputSha: z.string().optional().describe('name the input yourself instead of repo/artifact'),
  touched: z.array(z.string()).optional().describe('with inputSha: files changed'),
  renames: z.array(z.strictObject({ from: z.string(), to: z.string() })).optional(),
  base: z.string().optional().describe('with repo: the revision touched files are measured from'),
  allowDirty: z.boolean().optional().describe('with repo: bind to uncommitted working files'),
};
const waitFlags = {
  timeoutMs: z.number().int().positive().optional().describe('default 600000'),
  pollMs: z.number().int().positive().optional(),
  maxBytes: z.number().int().positive().optional().describe('largest report (default 4 MiB)'),
};
type WaitArgs = Readonly<{ timeoutMs?: number; pollMs?: number; maxBytes?: number }>;
const waitOf = (a: WaitArgs) => ({
  ...(a.timeoutMs === undefined ? {} : { timeoutMs: a.timeoutMs }),
  ...(a.pollMs === undefined ? {} : { pollMs: a.pollMs }),
  ...(a.maxBytes === undefined ? {} : { maxBytes: a.maxBytes }),
});

/** A report argument, parsed once by the parser every door uses; a refusal names its field under `report`. */
const reportOf = (input: unknown) => {
  const parsed = parseReport(input);
  if (E.isLeft(parsed)) throw refusal({ ...parsed.left, path: ['report', ...parsed.left.path] });
  return parsed.right;
};

/**
 * A rule's refusal of a report names its place in the report (`decisions[0].status`); the agent
 * sent the report as an argument, so the field is `report.decisions[0].status`.
 */
const underReport = async <T>(fromReport: boolean, recorded: Promise<T>): Promise<T> => {
  try {
    return await recorded;
  } catch (error) {
    const path = isClearanceError(error) ? error.details.path : undefined;
    if (
      !fromReport ||
      !isClearanceError(error) ||
      !Array.isArray(path) ||
      path.length === 0 ||
      path[0] === 'report'
    )
      throw error;
    throw new ClearanceError(error.code, error.message, { ...error.details, path: ['report', ...path] });
  }
};

/** `record`'s arguments name how the round ended: exactly one way. */
const roundSourceOf = (a: {
  report?: Record<string, unknown> | undefined;
  findingsMarkdown?: string | undefined;
  waitFor?: string | undefined;
  merge?: boolean | undefined;
  end?: 'none' | 'ci_failed' | 'partial' | undefined;
  reason?: string | undefined;
  timeoutMs?: number | undefined;
  pollMs?: number | undefined;
  maxBytes?: number | undefined;
}): RoundSource => {
  const given = [a.report, a.findingsMarkdown, a.waitFor, a.merge === true ? true : undefined, a.end].filter(
    (s) => s !== undefined,
  );
  if (given.length !== 1)
    throw new ClearanceError(
      'usage',
      'record needs exactly one of report, findingsMarkdown, waitFor, merge (true) or end (with reason)',
    );
  if (a.end !== undefined) {
    if (a.reason === undefined)
      throw new ClearanceError(
        'usage',
        `end ${a.end} needs a reason: a round that ends without a report says why`,
        {
          path: ['reason'],
        },
      );
    return { kind: 'end', result: a.end, reason: a.reason };
  }
  if (a.reason !== undefined) throw new ClearanceError('usage', 'reason goes with end', { path: ['reason'] });
  if (a.report !== undefined) return { kind: 'report', report: reportOf(a.report) };
  if (a.findingsMarkdown !== undefined) {
    boundBytes('findingsMarkdown', Buffer.byteLength(a.findingsMarkdown, 'utf8'));
    return { kind: 'markdown', review: a.findingsMarkdown };
  }
  if (a.waitFor !== undefined) return { kind: 'wait', path: a.waitFor, wait: waitOf(a) };
  return { kind: 'merge' };
};

export const TOOLS: ReadonlyArray<Tool> = [
  tool({
    name: 'open',
    description:
      "Start a review loop, once per run: pins the policy and captures round 1's input from repo (git HEAD), artifact (a document) or inputSha. Then have round 1 reviewed and call record.",
    input: z.strictObject({
      runId,
      policy: z
        .string()
        .optional()
        .describe(`${PRESET_NAMES.join(', ')} (default: default)`),
      ...subject,
      ...named,
      consent: z.array(z.string()).optional().describe('commands the user agrees the review may run'),
    }),
    call: (ctx, a) => open(ctx, a),
  }),
  tool({
    name: 'capture',
    description:
      "After the author changed the input, before the next round's review: captures it (HEAD of the run's repo, or the document's bytes). Answers round and inputSha, which that round's report names.",
    input: z.strictObject({
      runId,
      ...subject,
      ...named,
      sameInput: z
        .string()
        .optional()
        .describe('review the same input again, saying why (the policy allows sameInputRounds)'),
    }),
    call: (ctx, a) => capture(ctx, a),
  }),
  tool({
    name: 'status',
    description: 'Where a run stands: open, converged or blocked; rounds, findings, spending.',
    input: z.strictObject({ runId }),
    call: (ctx, a) => status(ctx, a),
  }),
  tool({
    name: 'next',
    description:
      'What to do now, read off the log: call it first, after any restart, and when unsure. Answers action (open, capture, record-checks, rerun-reproductions, run-stage, wait-report, end-partial, stop) and why.',
    input: z.strictObject({ runId }),
    call: (ctx, a) => next(ctx, a),
  }),
  tool({
    name: 'may',
    description:
      'Before running a stage: may it run now, at this cost, with these commands? Answers allowed and the rule that refuses it; writes nothing.',
    input: z.strictObject({
      runId,
      stage: z.string().describe('e.g. planning, experts, verify'),
      cost: CostSchema.optional(),
      commands: z.array(z.string()).optional(),
    }),
    call: (ctx, a) => may(ctx, a),
  }),
  tool({
    name: 'record',
    description:
      "After a round's review: records how it ended, by exactly one of report, findingsMarkdown ('- [major] src/a.js:2 :: summary' items, '- [fixed] <id> :: why' decisions), waitFor (a file a producer publishes the report at), merge (true: the round's contributions) or end with reason. Checked against every rule, written only if all hold. Answers status (open, converged, blocked) and the findings opened and changed.",
    input: z.strictObject({
      runId,
      report: z.record(z.string(), z.unknown()).optional(),
      findingsMarkdown: z.string().optional(),
      waitFor: filePath.optional(),
      merge: z.boolean().optional(),
      end: z.enum(['none', 'ci_failed', 'partial']).optional(),
      reason: z.string().optional().describe('with end: why'),
      partial: z.boolean().optional().describe('with report: the round is partial'),
      repo: filePath.optional().describe('resolve citations here (default: the run subject)'),
      expectSeq: z.number().int().nonnegative().optional().describe('refuse unless the log is at this seq'),
      ...waitFlags,
    }),
    listed: { report: 'report' },
    call: (ctx, a) =>
      underReport(
        a.report !== undefined,
        record(ctx, {
          runId: a.runId,
          source: roundSourceOf(a),
          ...(a.partial === undefined ? {} : { partial: a.partial }),
          ...(a.repo === undefined ? {} : { repo: a.repo }),
          ...(a.expectSeq === undefined ? {} : { expectSeq: a.expectSeq }),
        }),
      ),
  }),
  tool({
    name: 'reproduce',
    description:
      "When next answers rerun-reproductions, before the round's report: records whether a finding's reproduction still fails on the captured input, and what it printed. A fixed decision on one that still fails is refused.",
    input: z.strictObject({
      runId,
      finding: z.string().max(REPORT_LIMITS.findingId).describe('id, or a unique prefix of 8+ hex'),
      stillFails: z.boolean(),
      output: z.string().optional(),
    }),
    call: (ctx, a) => {
      if (a.output !== undefined) boundBytes('output', Buffer.byteLength(a.output, 'utf8'));
      return reproduce(ctx, {
        runId: a.runId,
        finding: a.finding,
        outcome: a.stillFails ? 'still-fails' : 'no-longer-fails',
        ...(a.output === undefined ? {} : { output: Buffer.from(a.output, 'utf8') }),
      });
    },
  }),
  tool({
    name: 'dispute',
    description:
      'As the author, between rounds, before the next review starts: disputes an open finding (it is wrong, nothing was changed for it) with one line of reason. The next round must rule on it: open upholds, withdrawn accepts. Upheld too often, a blocking finding blocks the run for a person.',
    input: z.strictObject({
      runId,
      finding: z.string().max(REPORT_LIMITS.findingId).describe('id, or a unique prefix of 8+ hex'),
      reason: z.string().max(DISPUTE_REASON_MAX).describe('one line: why the finding is wrong'),
    }),
    call: (ctx, a) => dispute(ctx, a),
  }),
  tool({
    name: 'checks',
    description:
      "When next answers record-checks, before the round's report: records CI's finished checks on the captured input (gh pr checks: SUCCESS, NEUTRAL are passed; SKIPPED skipped; else failed). A required check that failed ends the round ci_failed.",
    input: z.strictObject({
      runId,
      checks: z.array(
        z.strictObject({
          name: z.string(),
          state: z.enum(['passed', 'failed', 'skipped']),
          url: z.string().optional(),
        }),
      ),
    }),
    call: (ctx, a) => checks(ctx, { runId: a.runId, checks: a.checks }),
  }),
  tool({
    name: 'wait',
    description:
      'Wait for a round report to be published at path and return it, unchecked; cancelling the call stops the wait. record with waitFor waits and records in one step.',
    input: z.strictObject({
      path: filePath,
      runId,
      round: z.number().int().positive(),
      inputSha: z.string().describe('from capture'),
      ...waitFlags,
    }),
    call: (ctx, a) =>
      wait(ctx, { path: a.path, runId: a.runId, round: a.round, inputSha: a.inputSha, wait: waitOf(a) }),
  }),
  tool({
    name: 'findings',
    description: "A run's findings: status, severity, citation, whether each blocks.",
    input: z.strictObject({ runId, status: z.enum(['open', 'fixed', 'withdrawn']).optional() }),
    call: (ctx, a) => findings(ctx, a),
  }),
  tool({
    name: 'explain',
    description: 'Why a run is where it is: blocking findings and the rounds that kept them open, rulings.',
    input: z.strictObject({ runId }),
    call: (ctx, a) => explain(ctx, a),
  }),
  tool({
    name: 'feedback',
    description:
      'For the author, after a round: Markdown saying what to fix or answer before the next round.',
    input: z.strictObject({ runId }),
    call: (ctx, a) => feedback(ctx, a),
  }),
  tool({
    name: 'gate',
    description:
      'At the end: approves only a converged run whose reviewed commit or document is still the bytes in front of it; with base, also a rebase whose patch is the same. No bypass.',
    input: z.strictObject({
      runId,
      ...subject,
      base: z
        .string()
        .optional()
        .describe(
          'the branch the change goes into (origin/main): a HEAD making the same patch against it is approved by patch',
        ),
    }),
    call: (ctx, a) => gate(ctx, a),
  }),
];

/** Commands an agent is never offered, and why: docs/agents.md and the server's instructions say so. */
export const NOT_EXPOSED =
  'rule and extend are not tools: past the round cap only a named person decides, never an agent.';
