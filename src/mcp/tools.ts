import * as z from 'zod';
import { ClearanceError } from '../errors.js';
import { PRESET_NAMES } from '../events/policy.js';
import { CostSchema, ReportSchema } from '../events/round-report.js';
import { RUN_ID_PATTERN } from '../events/run-id.js';
import { capture } from '../operations/capture.js';
import { checks } from '../operations/checks.js';
import type { OperationContext } from '../operations/context.js';
import { dispute } from '../operations/dispute.js';
import { feedback } from '../operations/feedback.js';
import { gate } from '../operations/gate.js';
import { open } from '../operations/open.js';
import { type RoundSource, record } from '../operations/record.js';
import { wait } from '../operations/reports.js';
import { reproduce } from '../operations/reproduce.js';
import { explain, findings, may, next } from '../operations/run-views.js';
import * as out from '../operations/schemas/results.js';
import { status } from '../operations/status.js';

/**
 * The tools `clearance mcp` offers: each is one operation, its arguments described in zod (the SDK
 * validates them before a tool runs) and mapped to the operation's typed input, its answer the
 * operation's result (described by the same schema `clearance schema output` prints). No argument
 * becomes a command-line flag, and none can name a store, an actor or a lock timeout: those are the
 * server's, from its own start-up. `rule` and `extend` are not here: only a named person rules on a
 * finding or adds rounds, on the command line, never an agent.
 */
export type Tool = Readonly<{
  name: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  call: (ctx: OperationContext, args: Record<string, unknown>) => Promise<object>;
}>;

/** A tool from its schemas and its mapping: the arguments arrive typed as the input schema says. */
const tool = <I extends z.ZodObject>(
  definition: Readonly<{
    name: string;
    description: string;
    input: I;
    output: z.ZodObject;
    call: (ctx: OperationContext, args: z.output<I>) => Promise<object>;
  }>,
): Tool => definition as unknown as Tool;

const runId = z
  .string()
  .regex(RUN_ID_PATTERN, 'a run id is 1-128 characters of A-Z a-z 0-9 . _ -, starting with a letter or digit')
  .describe('the run id, e.g. pr-236');

/**
 * A file the server reads or waits on: a path, never a URL. A `postgres://` string here would make
 * the server connect where the agent chose and hand it the server's credentials; the server waits
 * only for files, and keeps to the store it was started with.
 */
const filePath = (what: string) =>
  z
    .string()
    .min(1)
    .refine((s) => !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(s), {
      message: 'a file path, not a URL: the server reads and waits on files only',
    })
    .describe(what);

const repo = filePath('a git repository directory (default: the run subject)').optional();
const artifact = filePath('a document file (default: the run subject)').optional();
const waitFlags = {
  timeoutMs: z.number().int().positive().optional().describe('the whole wait, one deadline (default 600000)'),
  pollMs: z.number().int().positive().optional().describe('the longest sleep between looks (default 250)'),
  maxBytes: z.number().int().positive().optional().describe('the largest report accepted (default 4 MiB)'),
};
type WaitArgs = Readonly<{ timeoutMs?: number; pollMs?: number; maxBytes?: number }>;
const waitOf = (a: WaitArgs) => ({
  ...(a.timeoutMs === undefined ? {} : { timeoutMs: a.timeoutMs }),
  ...(a.pollMs === undefined ? {} : { pollMs: a.pollMs }),
  ...(a.maxBytes === undefined ? {} : { maxBytes: a.maxBytes }),
});

const renames = z
  .array(z.strictObject({ from: z.string(), to: z.string() }))
  .optional()
  .describe('with inputSha: files renamed since the last reviewed input');

/** `record`'s arguments name how the round ended: exactly one way. */
const roundSourceOf = (a: {
  report?: z.output<typeof ReportSchema> | undefined;
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
      );
    return { kind: 'end', result: a.end, reason: a.reason };
  }
  if (a.reason !== undefined) throw new ClearanceError('usage', 'reason goes with end');
  if (a.report !== undefined) return { kind: 'report', report: a.report };
  if (a.findingsMarkdown !== undefined) return { kind: 'markdown', review: a.findingsMarkdown };
  if (a.waitFor !== undefined) return { kind: 'wait', path: a.waitFor, wait: waitOf(a) };
  return { kind: 'merge' };
};

export const TOOLS: ReadonlyArray<Tool> = [
  tool({
    name: 'open',
    description:
      'Open a review loop: pin its policy and, from a git repository (repo) or a document (artifact), capture round 1. clearance open.',
    input: z.strictObject({
      runId,
      policy: z
        .string()
        .optional()
        .describe(`a preset: ${PRESET_NAMES.join(', ')} (default: default)`),
      repo,
      artifact,
      base: z
        .string()
        .optional()
        .describe("with repo: the revision round 1's touched files are measured from"),
      allowDirty: z
        .boolean()
        .optional()
        .describe('with repo: bind to the working files, uncommitted changes included'),
      inputSha: z.string().optional().describe('capture round 1 naming the input explicitly instead'),
      touched: z.array(z.string()).optional().describe('with inputSha: files changed since the base'),
      renames,
      consent: z.array(z.string()).optional().describe('commands the user agrees the review may run'),
    }),
    output: out.OpenOutput,
    call: (ctx, a) => open(ctx, a),
  }),
  tool({
    name: 'capture',
    description:
      "Capture the next round's input: HEAD of the run's repository (or its document's bytes) after the author changed it. clearance capture.",
    input: z.strictObject({
      runId,
      repo,
      artifact,
      base: z.string().optional(),
      allowDirty: z
        .boolean()
        .optional()
        .describe('bind to the working files instead of refusing uncommitted changes'),
      inputSha: z.string().optional().describe('name the input explicitly instead'),
      touched: z
        .array(z.string())
        .optional()
        .describe('with inputSha: files changed since the last reviewed input'),
      renames,
      sameInput: z
        .string()
        .optional()
        .describe(
          'review again the very input the last round reviewed, as a recorded choice: why (the policy allows sameInputRounds of them, default 0)',
        ),
    }),
    output: out.CaptureOutput,
    call: (ctx, a) => capture(ctx, a),
  }),
  tool({
    name: 'status',
    description:
      'Where a run stands: its status (open, converged, blocked), rounds, findings and spending. clearance status.',
    input: z.strictObject({ runId }),
    output: out.StatusRunOutput,
    call: (ctx, a) => status(ctx, a),
  }),
  tool({
    name: 'next',
    description:
      'What the driver does next (capture, record-checks, rerun-reproductions, run-stage, wait-report, end-partial, stop), read off the log: ask it after any restart. clearance next.',
    input: z.strictObject({ runId }),
    output: out.NextOutput,
    call: (ctx, a) => next(ctx, a),
  }),
  tool({
    name: 'may',
    description:
      'May this stage run now, at this cost, with these commands? allowed: true or false with the rule that refuses it (an answer, not an error); writes nothing. clearance may.',
    input: z.strictObject({
      runId,
      stage: z.string().describe('the stage, e.g. planning, experts, verify, summarize'),
      cost: CostSchema.optional().describe('what it expects to spend'),
      commands: z.array(z.string()).optional().describe('commands it would run'),
    }),
    output: out.MayOutput,
    call: (ctx, a) => may(ctx, a),
  }),
  tool({
    name: 'record',
    description:
      "Record how a round ended: a round report (report, the object `clearance schema report` describes), a review in Markdown (findingsMarkdown: '- [major] src/app.js:2 :: …' items and '- [fixed] <id> :: …' decisions), a report to wait for (waitFor: the file a producer publishes it at), the merge of the round's contributions (merge: true), or an end without one (end + reason). Checked against every rule; appended only if all hold. clearance record.",
    input: z.strictObject({
      runId,
      report: ReportSchema.optional().describe('the round report'),
      findingsMarkdown: z.string().optional().describe('the review as Markdown, instead of report'),
      waitFor: filePath('wait for the report at this file, then record it').optional(),
      merge: z.boolean().optional().describe('true: close the round with the merge of its contributions'),
      end: z.enum(['none', 'ci_failed', 'partial']).optional().describe('end the round without a report'),
      reason: z.string().optional().describe('with end: why'),
      partial: z.boolean().optional().describe('with a report: the round is partial'),
      repo: filePath('resolve citations in this repository (default: the run subject)').optional(),
      expectSeq: z.number().int().nonnegative().optional().describe('refuse unless the log is at this seq'),
      ...waitFlags,
    }),
    output: out.RecordOutput,
    call: (ctx, a) =>
      record(ctx, {
        runId: a.runId,
        source: roundSourceOf(a),
        ...(a.partial === undefined ? {} : { partial: a.partial }),
        ...(a.repo === undefined ? {} : { repo: a.repo }),
        ...(a.expectSeq === undefined ? {} : { expectSeq: a.expectSeq }),
      }),
  }),
  tool({
    name: 'reproduce',
    description:
      "Record what a finding's reproduction did when re-run on the captured input (next answers rerun-reproductions with the list): stillFails true or false, and optionally what it printed (archived under the run). A fixed decision on a finding whose reproduction still fails on this input is refused. clearance reproduce.",
    input: z.strictObject({
      runId,
      finding: z.string().describe('the finding id, or a unique prefix of at least 8 hex characters'),
      stillFails: z.boolean().describe('true: the problem is still there; false: it is gone'),
      output: z.string().optional().describe('what the reproduction printed'),
    }),
    output: out.ReproduceOutput,
    call: (ctx, a) =>
      reproduce(ctx, {
        runId: a.runId,
        finding: a.finding,
        outcome: a.stillFails ? 'still-fails' : 'no-longer-fails',
        ...(a.output === undefined ? {} : { output: Buffer.from(a.output, 'utf8') }),
      }),
  }),
  tool({
    name: 'dispute',
    description:
      "As the author, dispute an open finding between rounds: it is wrong and nothing was changed for it, with one line of reasoning. The next round must rule on it, its file touched or not: open upholds it, withdrawn accepts the dispute. Say it before that round's review starts. A blocking finding upheld over the policy's count of disputes (2 by default) blocks the run for a person to rule. clearance dispute.",
    input: z.strictObject({
      runId,
      finding: z.string().describe('the finding id, or a unique prefix of at least 8 hex characters'),
      reason: z
        .string()
        .describe('why the finding is wrong: one line of printable text, at most 2000 characters'),
    }),
    output: out.DisputeOutput,
    call: (ctx, a) => dispute(ctx, a),
  }),
  tool({
    name: 'checks',
    description:
      "Record the project's CI checks as they finished on the captured input (next answers record-checks with the required ones): each check's name, state (passed, failed, skipped) and link. From gh pr checks --json name,state,link: SUCCESS and NEUTRAL are passed, SKIPPED skipped, any other ending failed; do not record checks still running. A required check that failed, or was skipped without being an expected skip, ends the round ci_failed with a reason naming it and its link; under required checks a report is refused until they are recorded. clearance checks.",
    input: z.strictObject({
      runId,
      checks: z
        .array(
          z.strictObject({
            name: z.string().describe('the check as CI names it, e.g. test (ubuntu-latest)'),
            state: z.enum(['passed', 'failed', 'skipped']).describe('how it ended'),
            url: z.string().optional().describe('its page (the log), an http(s) URL'),
          }),
        )
        .describe('every check CI reported on the captured input'),
    }),
    output: out.ChecksOutput,
    call: (ctx, a) => checks(ctx, { runId: a.runId, checks: a.checks }),
  }),
  tool({
    name: 'wait',
    description:
      "Wait for a round report to be published at a file (atomically, by `clearance publish`) and return it, unchecked; the client's cancellation stops the wait. To wait and record in one step, use record with waitFor. clearance wait.",
    input: z.strictObject({
      path: filePath('the file the producer publishes the report at'),
      runId,
      round: z.number().int().positive().describe('the round it must answer'),
      inputSha: z.string().describe('the input it must have reviewed (from capture)'),
      ...waitFlags,
    }),
    output: out.WaitOutput,
    call: (ctx, a) =>
      wait(ctx, { path: a.path, runId: a.runId, round: a.round, inputSha: a.inputSha, wait: waitOf(a) }),
  }),
  tool({
    name: 'findings',
    description:
      "A run's findings with their status, severity, citation and whether they block. clearance findings.",
    input: z.strictObject({ runId, status: z.enum(['open', 'fixed', 'withdrawn']).optional() }),
    output: out.FindingsOutput,
    call: (ctx, a) => findings(ctx, a),
  }),
  tool({
    name: 'explain',
    description:
      'Why the run is where it is: the blocking findings and every round that kept them open, incomplete rounds, rulings. clearance explain.',
    input: z.strictObject({ runId }),
    output: out.ExplainOutput,
    call: (ctx, a) => explain(ctx, a),
  }),
  tool({
    name: 'feedback',
    description:
      'The feedback for the author as Markdown: what must be fixed or answered before the next round. clearance feedback.',
    input: z.strictObject({ runId }),
    output: out.FeedbackOutput,
    call: (ctx, a) => feedback(ctx, a),
  }),
  tool({
    name: 'gate',
    description:
      'Approve only a converged run whose reviewed commit or document is still the bytes in front of it; a refusal is an error naming why. There is no bypass. clearance gate.',
    input: z.strictObject({ runId, repo, artifact }),
    output: out.GateOutput,
    call: (ctx, a) => gate(ctx, a),
  }),
];

/** Commands an agent is never offered, and why: docs/agents.md and the server's instructions say so. */
export const NOT_EXPOSED =
  'rule and extend are not tools: past the round cap only a named person decides (clearance rule, clearance extend, on the command line, with --by and --why).';
