import type { RunStatus } from '../projections/state.js';
import { type StatusView, statusOf } from '../projections/views/status.js';
import type { TornTail } from '../store/log-format.js';
import { intact } from '../store/read.js';
import type { OperationContext } from './context.js';

export type RunInput = Readonly<{ runId: string }>;

/** Where one run stands: its status view, the log's last seq and any torn tail set aside. */
export type StatusResult = StatusView & Readonly<{ seq: number; tornTail: TornTail | null }>;

/** `clearance status RUN`: from the run's checkpoint when it still matches the log. */
export const status = async (ctx: OperationContext, input: RunInput): Promise<StatusResult> => {
  const read = intact(await ctx.store.foldRun(input.runId));
  return { ...statusOf(read.state), seq: read.lastSeq, tornTail: read.tornTail };
};

export type RunListing = Readonly<{
  runId: string;
  status: RunStatus | 'damaged';
  round: number | null;
  maxRounds: number | null;
}>;

export type ListRunsResult = Readonly<{ store: string; runs: ReadonlyArray<RunListing> }>;

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
