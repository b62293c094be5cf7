import path from 'node:path';
import {
  contribute as appendContribution,
  collectContributions,
  type ExpertSource,
} from '../driver/contribute.js';
import type { RoundReport } from '../events/round-report.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import { actorOf, checkedName, type OperationContext } from './context.js';
import { type RecordResult, recordResultOf } from './recorded.js';

export type ContributeInput = Readonly<{
  runId: string;
  /** the reviewer's report, already parsed (`parseReport`) by the door that read it */
  report: RoundReport;
  /** who reviewed; none for an anonymous contributor */
  expert?: string;
}>;

export type ContributeResult = Readonly<{
  runId: string;
  round: number;
  expert: string | null;
  seq: number | null;
  alreadyRecorded: boolean;
  /** who has handed in for this round so far */
  contributions: ReadonlyArray<string>;
}>;

/** Append one reviewer's report to the round in progress (close the round with `record` and the merge). */
export const contribute = async (
  ctx: OperationContext,
  input: ContributeInput,
): Promise<ContributeResult> => {
  if (input.expert !== undefined) checkedName(input.expert, 'expert');
  const result = await appendContribution(ctx.store, input.runId, input.report, input.expert, actorOf(ctx));
  const { state } = result.folded;
  const round = state.round + 1;
  return {
    runId: input.runId,
    round,
    expert: input.expert ?? null,
    seq: result.appended[0]?.seq ?? null,
    alreadyRecorded: result.alreadyRecorded,
    contributions: state.contributions.filter((c) => c.round === round).map((c) => c.expert ?? 'anonymous'),
  };
};

export type CollectInput = Readonly<{
  runId: string;
  /** each reviewer and where its report will be published */
  experts: ReadonlyArray<ExpertSource>;
  wait?: WaitOptions;
}>;

/**
 * Wait for several reviewers' reports under one deadline, append each as it arrives, record the
 * rest absent, then close the round with the merge.
 */
export const collect = async (ctx: OperationContext, input: CollectInput): Promise<RecordResult> => {
  const sources = input.experts.map((s) => ({
    expert: checkedName(s.expert, 'expert'),
    path: path.resolve(s.path),
  }));
  const wait = { ...input.wait, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) };
  return recordResultOf(
    input.runId,
    await collectContributions(ctx.store, input.runId, sources, { ...actorOf(ctx), wait }),
  );
};
