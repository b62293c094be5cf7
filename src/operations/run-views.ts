import type { Cost } from '@clearance/fold/internal/events/policy.js';
import { tokenCountRejection } from '@clearance/fold/internal/events/token-count.js';
import type { FindingStatus } from '@clearance/fold/internal/projections/state.js';
import { costReport } from '@clearance/fold/internal/projections/views/cost.js';
import {
  type Explanation,
  explain as explanationOf,
} from '@clearance/fold/internal/projections/views/explain.js';
import { findingsOf, findingView } from '@clearance/fold/internal/projections/views/findings.js';
import { mayRunStage } from '@clearance/fold/internal/projections/views/may-run-stage.js';
import { type NextMove, nextMove } from '@clearance/fold/internal/projections/views/next.js';
import { reproductionsToRun } from '@clearance/fold/internal/projections/views/reproductions.js';
import { describedOutcome } from '@clearance/fold/internal/render/outcome-reason.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';
import { boundList, boundText, INPUT_BOUNDS } from './input-bounds.js';
import type {
  CostOutput,
  ExplainOutput,
  FindingsOutput,
  MayOutput,
  NextOutput,
  ReproductionsOutput,
  ResultOf,
} from './schemas/results.js';
import type { RunInput } from './status.js';

/**
 * The read operations that are one view over a run's state: each reads the state by the store's
 * quickest honest way (the checkpoint when it still matches the log, then only the lines after it)
 * and answers with the view. None takes a lock or writes.
 */

const stateOf = async (ctx: OperationContext, runId: string) => intact(await ctx.store.foldRun(runId)).state;

export type FindingsInput = RunInput & Readonly<{ status?: FindingStatus }>;
export type FindingsResult = ResultOf<typeof FindingsOutput>;

export const findings = async (ctx: OperationContext, input: FindingsInput): Promise<FindingsResult> => {
  const state = await stateOf(ctx, input.runId);
  return {
    runId: input.runId,
    findings: findingsOf(state, input.status).map((f) => findingView(f, state)),
  };
};

export type ExplainResult = ResultOf<typeof ExplainOutput> & Explanation;

export const explain = async (ctx: OperationContext, input: RunInput): Promise<ExplainResult> => {
  const explanation = explanationOf(await stateOf(ctx, input.runId));
  return {
    runId: input.runId,
    ...explanation,
    incomplete: explanation.incomplete.map(describedOutcome),
    rounds: explanation.rounds.map(describedOutcome),
  };
};

export type NextResult = ResultOf<typeof NextOutput> & NextMove;

export const next = async (ctx: OperationContext, input: RunInput): Promise<NextResult> => ({
  runId: input.runId,
  ...nextMove(await stateOf(ctx, input.runId)),
});

export type MayInput = RunInput & Readonly<{ stage: string; cost?: Cost; commands?: ReadonlyArray<string> }>;

export type MayResult = ResultOf<typeof MayOutput>;

/** May this stage run now, at this cost, with these commands? An answer, never a refusal. */
export const may = async (ctx: OperationContext, input: MayInput): Promise<MayResult> => {
  boundText('stage', input.stage, INPUT_BOUNDS.stage);
  boundList('commands', input.commands, INPUT_BOUNDS.commands, INPUT_BOUNDS.command);
  const state = await stateOf(ctx, input.runId);
  const answer = mayRunStage(state, input.stage, input.cost ?? {}, input.commands ?? []);
  // the estimate is asked of the same door `stage --start` passes (driver/lifecycle.ts)
  const rejection = tokenCountRejection(input.cost ?? {}, 'stage estimate', ['estimate']) ?? answer.rejection;
  return {
    runId: input.runId,
    stage: input.stage,
    allowed: rejection === null,
    rejection: rejection === null ? null : { code: rejection.code, message: rejection.message },
    spent: answer.spent,
    budget: answer.budget,
  };
};

export type CostResult = ResultOf<typeof CostOutput>;

export const cost = async (ctx: OperationContext, input: RunInput): Promise<CostResult> => ({
  runId: input.runId,
  ...costReport(await stateOf(ctx, input.runId)),
});

export type ReproductionsResult = ResultOf<typeof ReproductionsOutput>;

export const reproductions = async (ctx: OperationContext, input: RunInput): Promise<ReproductionsResult> => {
  const state = await stateOf(ctx, input.runId);
  return { runId: input.runId, round: state.round, reproductions: reproductionsToRun(state) };
};
