import { type StatusView, statusOf } from '@clearance/fold/internal/projections/views/status.js';
import { describedOutcome } from '@clearance/fold/internal/render/outcome-reason.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';
import type { ResultOf, StatusListOutput, StatusRunOutput } from './schemas/results.js';

export type RunInput = Readonly<{ runId: string }>;

/** Where one run stands: its status view (which the schema describes), the log's last seq, any torn tail set aside. */
export type StatusResult = ResultOf<typeof StatusRunOutput> & StatusView;

/** `clearance status RUN`: from the run's checkpoint when it still matches the log. */
export const status = async (ctx: OperationContext, input: RunInput): Promise<StatusResult> => {
  const read = intact(await ctx.store.foldRun(input.runId));
  const view = statusOf(read.state);
  return {
    ...view,
    rounds: view.rounds.map(describedOutcome),
    seq: read.lastSeq,
    tornTail: read.tornTail,
  };
};

export type ListRunsResult = ResultOf<typeof StatusListOutput>;

export type RunListing = ListRunsResult['runs'][number];

/** `clearance status`: every run in the store, one line each, from its checkpoint where it matches. */
export const listRuns = async (ctx: OperationContext): Promise<ListRunsResult> => {
  const runs: RunListing[] = [];
  // one run at a time: only a line each is kept
  for (const runId of await ctx.store.listRuns()) {
    const read = await ctx.store.readRunSummary(runId);
    runs.push({
      runId,
      status: read.issue === null ? read.status : 'damaged',
      round: read.round,
      maxRounds: read.maxRounds,
    });
  }
  return { store: ctx.store.where, runs };
};
