import * as z from 'zod';
import * as out from '../cli/output-schemas/commands.js';
import { CostSchema, ReportSchema } from '../events/report.js';

/**
 * The tools `clearance mcp` offers: each is one clearance command, its arguments described in zod
 * and turned into that command's argv, its answer the command's `--json` object (described by the
 * same output schema `clearance schema output` prints). `rule` and `extend` are not here: only a
 * named person rules on a finding or adds rounds, on the command line, never an agent.
 */
export type Tool = Readonly<{
  name: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  /** the command line, without `--json`, and what goes to its standard input */
  argv: (args: Record<string, unknown>) => Readonly<{ argv: string[]; stdin?: string }>;
}>;

const runId = z.string().describe('the run id, e.g. pr-236');
const repo = z.string().optional().describe('a git repository directory (default: the run subject)');
const artifact = z.string().optional().describe('a document file (default: the run subject)');
const waitFlags = {
  timeoutMs: z.number().int().positive().optional().describe('the whole wait, one deadline (default 600000)'),
  pollMs: z.number().int().positive().optional().describe('the longest sleep between looks (default 250)'),
  maxBytes: z.number().int().positive().optional().describe('the largest report accepted (default 4 MiB)'),
};

type Args = Record<string, unknown>;
const flag = (name: string, value: unknown): string[] =>
  value === undefined || value === false ? [] : value === true ? [name] : [name, String(value)];
const each = (name: string, values: unknown): string[] =>
  Array.isArray(values) ? values.flatMap((v) => [name, String(v)]) : [];
const waitArgv = (a: Args): string[] => [
  ...flag('--timeout-ms', a.timeoutMs),
  ...flag('--poll-ms', a.pollMs),
  ...flag('--max-bytes', a.maxBytes),
];
const costArg = (cost: unknown): string[] =>
  cost === undefined
    ? []
    : [
        '--cost',
        Object.entries(cost as Record<string, number>)
          .map(([k, v]) => `${k}=${v}`)
          .join(','),
      ];

const renames = z
  .array(z.strictObject({ from: z.string(), to: z.string() }))
  .optional()
  .describe('with inputSha: files renamed since the last reviewed input');
const renameArgs = (values: unknown): string[] =>
  Array.isArray(values)
    ? values.flatMap((r: { from: string; to: string }) => ['--rename', `${r.from}=${r.to}`])
    : [];

export const TOOLS: ReadonlyArray<Tool> = [
  {
    name: 'open',
    description:
      'Open a review loop: pin its policy and, from a git repository (repo) or a document (artifact), capture round 1. clearance open.',
    input: z.strictObject({
      runId,
      policy: z.string().optional().describe('a preset: default, issueflow, standard (default: default)'),
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
    argv: (a) => ({
      argv: [
        'open',
        String(a.runId),
        ...flag('--policy', a.policy),
        ...flag('--repo', a.repo),
        ...flag('--artifact', a.artifact),
        ...flag('--base', a.base),
        ...flag('--allow-dirty', a.allowDirty),
        ...flag('--input-sha', a.inputSha),
        ...each('--touched', a.touched),
        ...renameArgs(a.renames),
        ...each('--consent', a.consent),
      ],
    }),
  },
  {
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
    }),
    output: out.CaptureOutput,
    argv: (a) => ({
      argv: [
        'capture',
        String(a.runId),
        ...flag('--repo', a.repo),
        ...flag('--artifact', a.artifact),
        ...flag('--base', a.base),
        ...flag('--allow-dirty', a.allowDirty),
        ...flag('--input-sha', a.inputSha),
        ...each('--touched', a.touched),
        ...renameArgs(a.renames),
      ],
    }),
  },
  {
    name: 'status',
    description:
      'Where a run stands: its status (open, converged, blocked), rounds, findings and spending. clearance status.',
    input: z.strictObject({ runId }),
    output: out.StatusRunOutput,
    argv: (a) => ({ argv: ['status', String(a.runId)] }),
  },
  {
    name: 'next',
    description:
      'What the driver does next (capture, rerun-reproductions, run-stage, wait-report, end-partial, stop), read off the log: ask it after any restart. clearance next.',
    input: z.strictObject({ runId }),
    output: out.NextOutput,
    argv: (a) => ({ argv: ['next', String(a.runId)] }),
  },
  {
    name: 'may',
    description:
      'May this stage run now, at this cost, with these commands? allowed: true or false with the rule that refuses it; writes nothing. clearance may.',
    input: z.strictObject({
      runId,
      stage: z.string().describe('the stage, e.g. planning, experts, verify, summarize'),
      cost: CostSchema.optional().describe('what it expects to spend'),
      commands: z.array(z.string()).optional().describe('commands it would run'),
    }),
    output: out.MayOutput,
    argv: (a) => ({
      argv: [
        'may',
        String(a.runId),
        '--stage',
        String(a.stage),
        ...costArg(a.cost),
        ...each('--command', a.commands),
      ],
    }),
  },
  {
    name: 'record',
    description:
      "Record how a round ended: a round report (report, the object `clearance schema report` describes), a review in Markdown (findingsMarkdown: '- [major] src/app.js:2 :: …' items and '- [fixed] <id> :: …' decisions), a report to wait for (waitFor: the path a producer publishes it at), or an end without one (end + reason). Checked against every rule; appended only if all hold. clearance record.",
    input: z.strictObject({
      runId,
      report: ReportSchema.optional().describe('the round report'),
      findingsMarkdown: z.string().optional().describe('the review as Markdown, instead of report'),
      waitFor: z.string().optional().describe('wait for the report at this path, then record it'),
      end: z.enum(['none', 'ci_failed', 'partial']).optional().describe('end the round without a report'),
      reason: z.string().optional().describe('with end: why'),
      partial: z.boolean().optional().describe('with a report: the round is partial'),
      repo: z.string().optional().describe('resolve citations in this repository (default: the run subject)'),
      expectSeq: z.number().int().nonnegative().optional().describe('refuse unless the log is at this seq'),
      ...waitFlags,
    }),
    output: out.RecordOutput,
    argv: (a) => {
      const common = [
        ...flag('--partial', a.partial),
        ...flag('--repo', a.repo),
        ...flag('--expect-seq', a.expectSeq),
        ...waitArgv(a),
      ];
      const id = String(a.runId);
      if (a.report !== undefined)
        return { argv: ['record', id, '--report', '-', ...common], stdin: JSON.stringify(a.report) };
      if (a.findingsMarkdown !== undefined)
        return { argv: ['record', id, '--findings-md', '-', ...common], stdin: String(a.findingsMarkdown) };
      // none of them, or several: the command says which one it needs
      return {
        argv: [
          'record',
          id,
          ...flag('--wait', a.waitFor),
          ...flag('--end', a.end),
          ...flag('--reason', a.reason),
          ...common,
        ],
      };
    },
  },
  {
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
    argv: (a) => ({
      argv: [
        'reproduce',
        String(a.runId),
        String(a.finding),
        a.stillFails === true ? '--still-fails' : '--no-longer-fails',
        ...(a.output === undefined ? [] : ['--output', '-']),
      ],
      ...(a.output === undefined ? {} : { stdin: String(a.output) }),
    }),
  },
  {
    name: 'wait',
    description:
      "Wait for a round report to be published at a path (atomically, by `clearance publish`) and return it, unchecked; the client's cancellation stops the wait. To wait and record in one step, use record with waitFor. clearance wait.",
    input: z.strictObject({
      path: z.string().describe('where the producer publishes the report'),
      runId: z.string().describe('the run the report must belong to'),
      round: z.number().int().positive().describe('the round it must answer'),
      inputSha: z.string().describe('the input it must have reviewed (from capture)'),
      ...waitFlags,
    }),
    output: out.WaitOutput,
    argv: (a) => ({
      argv: [
        'wait',
        String(a.path),
        ...flag('--run', a.runId),
        ...flag('--round', a.round),
        ...flag('--input-sha', a.inputSha),
        ...waitArgv(a),
      ],
    }),
  },
  {
    name: 'findings',
    description:
      "A run's findings with their status, severity, citation and whether they block. clearance findings.",
    input: z.strictObject({ runId, status: z.enum(['open', 'fixed', 'withdrawn']).optional() }),
    output: out.FindingsOutput,
    argv: (a) => ({ argv: ['findings', String(a.runId), ...flag('--status', a.status)] }),
  },
  {
    name: 'explain',
    description:
      'Why the run is where it is: the blocking findings and every round that kept them open, incomplete rounds, rulings. clearance explain.',
    input: z.strictObject({ runId }),
    output: out.ExplainOutput,
    argv: (a) => ({ argv: ['explain', String(a.runId)] }),
  },
  {
    name: 'feedback',
    description:
      'The feedback for the author as Markdown: what must be fixed or answered before the next round. clearance feedback.',
    input: z.strictObject({ runId }),
    output: out.FeedbackOutput,
    argv: (a) => ({ argv: ['feedback', String(a.runId)] }),
  },
  {
    name: 'gate',
    description:
      'Approve only a converged run whose reviewed commit or document is still the bytes in front of it; a refusal is an error naming why. There is no bypass. clearance gate.',
    input: z.strictObject({ runId, repo, artifact }),
    output: out.GateOutput,
    argv: (a) => ({
      argv: ['gate', String(a.runId), ...flag('--repo', a.repo), ...flag('--artifact', a.artifact)],
    }),
  },
];

/** Commands an agent is never offered, and why: the README and the server's instructions say so. */
export const NOT_EXPOSED =
  'rule and extend are not tools: past the round cap only a named person decides (clearance rule, clearance extend, on the command line, with --by and --why).';
