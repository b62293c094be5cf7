import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import type { HtmlReportResult, SarifResult } from '../../src/operations/artifacts.js';
import type { AttestResult, VerifyAttestationResult } from '../../src/operations/attest.js';
import type { AuditResult } from '../../src/operations/audit.js';
import type { CaptureResult } from '../../src/operations/capture.js';
import type { ChecksResult } from '../../src/operations/checks.js';
import type { ContributeResult } from '../../src/operations/contributions.js';
import type { FeedbackResult } from '../../src/operations/feedback.js';
import type { GateResult } from '../../src/operations/gate.js';
import type { OpenResult } from '../../src/operations/open.js';
import type { RecordResult } from '../../src/operations/recorded.js';
import type { ReplayResult } from '../../src/operations/replay.js';
import type { PublishResult, WaitResult } from '../../src/operations/reports.js';
import type { ReproduceResult } from '../../src/operations/reproduce.js';
import type { ExtendResult, RuleResult } from '../../src/operations/rulings.js';
import type {
  CostResult,
  ExplainResult,
  FindingsResult,
  MayResult,
  NextResult,
  ReproductionsResult,
} from '../../src/operations/run-views.js';
import type { ReviewStatementSchema } from '../../src/operations/schemas/attestation.js';
import type * as out from '../../src/operations/schemas/results.js';
import type { StageResult } from '../../src/operations/stage.js';
import type { ListRunsResult, StatusResult } from '../../src/operations/status.js';
import type { InitStoreResult } from '../../src/operations/store-init.js';
import type { ExportResult, ImportResult } from '../../src/operations/transfer.js';
import type { VerifyResult } from '../../src/operations/verify.js';
import type { ReviewStatement } from '../../src/render/attestation.js';

/** Every level read-only: operations hand out views they never copy, so arrays are ReadonlyArray. */
type DeepReadonly<T> = T extends (infer U)[]
  ? ReadonlyArray<DeepReadonly<U>>
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** What an operation's result must fit: its command's published `--json` schema, without `ok`. */
type Published<S extends z.ZodType> = DeepReadonly<Omit<z.output<S>, 'ok'>>;

/** Compiles only when every `Result` is assignable to `Schema`: the check is the typecheck's. */
const checked: string[] = [];
const fits = <Result, Schema>(_assign: (result: Result) => Schema): void => {
  checked.push('');
};

// Checked by the typecheck (tsc over test/), which CI runs: a result type that drifts from the
// schema `clearance schema output` publishes and the MCP tools declare fails to compile here.
describe('each operation result fits its published output schema', () => {
  it('type-checks (tsc fails on a result that does not fit its schema)', () => {
    fits<OpenResult, Published<typeof out.OpenOutput>>((r) => r);
    fits<CaptureResult, Published<typeof out.CaptureOutput>>((r) => r);
    fits<PublishResult, Published<typeof out.PublishOutput>>((r) => r);
    fits<WaitResult, Published<typeof out.WaitOutput>>((r) => r);
    fits<StageResult, Published<typeof out.StageOutput>>((r) => r);
    fits<RecordResult, Published<typeof out.RecordOutput>>((r) => r);
    fits<StatusResult, Published<typeof out.StatusRunOutput>>((r) => r);
    fits<ListRunsResult, Published<typeof out.StatusListOutput>>((r) => r);
    fits<FindingsResult, Published<typeof out.FindingsOutput>>((r) => r);
    fits<ReplayResult, Published<typeof out.ReplayOutput>>((r) => r);
    fits<ExplainResult, Published<typeof out.ExplainOutput>>((r) => r);
    fits<FeedbackResult, Published<typeof out.FeedbackOutput>>((r) => r);
    fits<GateResult, Published<typeof out.GateOutput>>((r) => r);
    fits<NextResult, Published<typeof out.NextOutput>>((r) => r);
    fits<MayResult, Published<typeof out.MayOutput>>((r) => r);
    fits<CostResult, Published<typeof out.CostOutput>>((r) => r);
    fits<ReproductionsResult, Published<typeof out.ReproductionsOutput>>((r) => r);
    fits<ReproduceResult, Published<typeof out.ReproduceOutput>>((r) => r);
    fits<ChecksResult, Published<typeof out.ChecksOutput>>((r) => r);
    fits<RuleResult, Published<typeof out.RuleOutput>>((r) => r);
    fits<ExtendResult, Published<typeof out.ExtendOutput>>((r) => r);
    fits<SarifResult, Published<typeof out.SarifOutput>>((r) => r);
    fits<HtmlReportResult, Published<typeof out.ReportOutput>>((r) => r);
    fits<VerifyResult, Published<typeof out.VerifyOutput>>((r) => r);
    fits<ContributeResult, Published<typeof out.ContributeOutput>>((r) => r);
    fits<ExportResult, Published<typeof out.ExportOutput>>((r) => r);
    fits<ImportResult, Published<typeof out.ImportOutput>>((r) => r);
    fits<InitStoreResult, Published<typeof out.StoreInitOutput>>((r) => r);
    fits<
      Omit<AttestResult, 'statement'> & { out: string | null },
      Published<(typeof out.AttestOutput.options)[0]>
    >((r) => r);
    fits<VerifyAttestationResult, Published<(typeof out.AttestOutput.options)[1]>>((r) => r);
    fits<AuditResult, Published<typeof out.AuditOutput>>((r) => r);
    fits<ReviewStatement, DeepReadonly<z.output<typeof ReviewStatementSchema>>>((r) => r);
    expect(checked).toHaveLength(32);
  });
});
