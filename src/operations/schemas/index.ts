import * as z from 'zod';
import { Failure } from './parts.js';
import * as out from './results.js';

/**
 * Every command's `--json` success shape, by command name (`--help` and `--version` too). `mcp`
 * prints no JSON: it speaks the protocol on stdout.
 */
export const OUTPUT_SCHEMAS = {
  open: out.OpenOutput,
  capture: out.CaptureOutput,
  publish: out.PublishOutput,
  wait: out.WaitOutput,
  stage: out.StageOutput,
  record: out.RecordOutput,
  status: z.union([out.StatusRunOutput, out.StatusListOutput]),
  findings: out.FindingsOutput,
  replay: out.ReplayOutput,
  explain: out.ExplainOutput,
  feedback: out.FeedbackOutput,
  gate: out.GateOutput,
  next: out.NextOutput,
  may: out.MayOutput,
  cost: out.CostOutput,
  reproductions: out.ReproductionsOutput,
  reproduce: out.ReproduceOutput,
  dispute: out.DisputeOutput,
  checks: out.ChecksOutput,
  rule: out.RuleOutput,
  extend: out.ExtendOutput,
  sarif: out.SarifOutput,
  report: out.ReportOutput,
  verify: out.VerifyOutput,
  attest: out.AttestOutput,
  audit: out.AuditOutput,
  schema: out.SchemaOutput,
  contribute: out.ContributeOutput,
  collect: out.RecordOutput,
  export: out.ExportOutput,
  import: out.ImportOutput,
  store: out.StoreInitOutput,
  demo: out.DemoOutput,
  help: out.HelpOutput,
  version: out.VersionOutput,
} as const;

export type OutputName = keyof typeof OUTPUT_SCHEMAS;

export const OUTPUT_NAMES = Object.keys(OUTPUT_SCHEMAS) as ReadonlyArray<OutputName>;

export const isOutputName = (name: string): name is OutputName => Object.hasOwn(OUTPUT_SCHEMAS, name);

/** What `clearance schema output NAME` prints: its success shape, or the one failure envelope. */
export const outputJsonSchema = (name: OutputName): Record<string, unknown> =>
  z.toJSONSchema(z.union([OUTPUT_SCHEMAS[name], Failure]).describe(`clearance ${name} --json`), {
    io: 'output',
  }) as Record<string, unknown>;
