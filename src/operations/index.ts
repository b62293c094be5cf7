/**
 * The operations layer: every command of clearance as `(context, input) => Promise<result>`, over a
 * store the caller opened. The CLI and the MCP server are two thin doors on it; a library caller
 * can be a third (`import { operations } from 'clearance'`).
 */
export {
  type HtmlReportInput,
  type HtmlReportResult,
  htmlPage,
  type SarifInput,
  type SarifResult,
  sarif,
} from './artifacts.js';
export { type CaptureInput, type CaptureResult, capture } from './capture.js';
export { type ChecksInput, type ChecksResult, checks } from './checks.js';
export {
  actorOf,
  checkedName,
  type Operation,
  type OperationContext,
  type StorelessContext,
} from './context.js';
export {
  type CollectInput,
  type ContributeInput,
  type ContributeResult,
  collect,
  contribute,
  type ReviewerSource,
} from './contributions.js';
export { type DisputeInput, type DisputeResult, dispute } from './dispute.js';
export { type Failure, failureOf } from './failure.js';
export { type FeedbackResult, feedback } from './feedback.js';
export { type GateInput, type GateResult, gate } from './gate.js';
export { type GithubInput, type GithubResult, github } from './github.js';
export { type NamedInput, type NamedRevision, type OpenInput, type OpenResult, open } from './open.js';
export { type RecordInput, type RoundSource, record } from './record.js';
export type { OpenedFinding, RecordResult } from './recorded.js';
export { type ReplayedEvent, type ReplayResult, replay } from './replay.js';
export {
  type PublishInput,
  type PublishResult,
  publish,
  type WaitInput,
  type WaitResult,
  wait,
} from './reports.js';
export { type ReproduceInput, type ReproduceResult, reproduce } from './reproduce.js';
export {
  type ExtendInput,
  type ExtendResult,
  extend,
  type RuleInput,
  type RuleResult,
  rule,
} from './rulings.js';
export {
  type CostResult,
  cost,
  type ExplainResult,
  explain,
  type FindingsInput,
  type FindingsResult,
  findings,
  type MayInput,
  type MayResult,
  may,
  type NextResult,
  next,
  type ReproductionsResult,
  reproductions,
} from './run-views.js';
export { type SchemaInput, type SchemaResult, schema } from './schema.js';
export { type StageInput, type StageResult, type StageStep, stage } from './stage.js';
export { type ListRunsResult, listRuns, type RunInput, type StatusResult, status } from './status.js';
export { type InitStoreResult, initStore } from './store-init.js';
export { openStoreAt, parseStoreLocation, type StoreLocation } from './store-location.js';
export {
  type ExportInput,
  type ExportResult,
  exportRun,
  type ImportInput,
  type ImportResult,
  importRun,
} from './transfer.js';
export { type VerifiedRun, type VerifyInput, type VerifyResult, verify } from './verify.js';
export { VERSION } from './version.js';
