import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import { printableLocation, publishReportAt, waitForReportAt } from '../handoff/at.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import { checkedName, type StorelessContext } from './context.js';
import { boundText, INPUT_BOUNDS } from './input-bounds.js';
import type { PublishOutput, ResultOf, WaitOutput } from './schemas/results.js';

/**
 * The completion protocol's two sides, for producers and drivers that keep no run: publish a report
 * atomically where a driver waits for it, and wait for one to be published. Neither opens a store
 * of the door's; the path names where the report is (a file, or a PostgreSQL store by URL: only
 * a door that trusts whoever names it may pass a URL — the MCP server never does).
 */

export type PublishInput = Readonly<{
  path: string;
  /** the report, already parsed (`parseReport`): one the driver would refuse is refused here */
  report: RoundReport;
  /** in a store: the reviewer whose report this is, when a round collects several */
  reviewer?: string;
}>;

export type PublishResult = ResultOf<typeof PublishOutput>;

export const publish = async (_ctx: StorelessContext, input: PublishInput): Promise<PublishResult> => {
  await publishReportAt(
    input.path,
    input.report,
    input.reviewer === undefined ? '' : checkedName(input.reviewer, 'reviewer'),
  );
  const { runId, round, inputSha, completed } = input.report;
  return { path: printableLocation(input.path), runId, round, inputSha, completed };
};

export type WaitInput = Readonly<{
  path: string;
  runId: string;
  round: number;
  inputSha: string;
  wait?: WaitOptions;
}>;

export type WaitResult = ResultOf<typeof WaitOutput>;

/** Wait for the complete report of one run, round and input to be published at `path`. */
export const wait = async (ctx: StorelessContext, input: WaitInput): Promise<WaitResult> => {
  boundText('inputSha', input.inputSha, INPUT_BOUNDS.inputSha);
  const collected = await waitForReportAt(
    input.path,
    { runId: input.runId, round: input.round, inputSha: input.inputSha },
    { ...input.wait, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) },
  );
  return {
    path: printableLocation(input.path),
    report: collected.report,
    bytes: collected.bytes,
    waitedMs: collected.waitedMs,
  };
};
