import path from 'node:path';
import { collectRound } from '../driver/collect.js';
import { recordMerged } from '../driver/contribute.js';
import { endRound } from '../driver/lifecycle.js';
import { type RecordOptions, recordFindingsMarkdown, recordReport } from '../driver/record.js';
import type { RoundEndResult } from '../events/event.js';
import type { RoundReport } from '../events/round-report.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import { actorOf, type OperationContext } from './context.js';
import { boundText, INPUT_BOUNDS } from './input-bounds.js';
import { type RecordResult, recordResultOf } from './recorded.js';

/** How a round ends: exactly one of these. */
export type RoundSource =
  /** a round report, already parsed (`parseReport`) by the door that read it */
  | Readonly<{ kind: 'report'; report: RoundReport }>
  /** a review in Markdown, as sent: it becomes the next round's report */
  | Readonly<{ kind: 'markdown'; review: string | Uint8Array }>
  /** wait for the next round's report to be published at `path`, then record it */
  | Readonly<{ kind: 'wait'; path: string; wait?: WaitOptions }>
  /** close the round with the merge of the contributions recorded so far */
  | Readonly<{ kind: 'merge' }>
  /** end the round without a complete report, saying why */
  | Readonly<{ kind: 'end'; result: RoundEndResult; reason: string }>;

export type RecordInput = Readonly<{
  runId: string;
  source: RoundSource;
  /** with a report: the round is partial (the budget ran out, an expert handed in nothing) */
  partial?: boolean;
  /** resolve citations in this repository (default: the one the run was opened with) */
  repo?: string;
  /** refuse unless the log is at this seq */
  expectSeq?: number;
}>;

/**
 * Record how a round ended: its report checked against every rule and appended only if all hold,
 * the merge of its contributions, or an end without a report. A refusal throws with the rule's
 * code and writes nothing.
 */
export const record = async (ctx: OperationContext, input: RecordInput): Promise<RecordResult> => {
  const { runId, source } = input;
  const actor = {
    ...actorOf(ctx),
    ...(input.expectSeq === undefined ? {} : { expectedSeq: input.expectSeq }),
  };
  if (source.kind === 'merge') return recordResultOf(runId, await recordMerged(ctx.store, runId, actor));
  if (source.kind === 'end') {
    boundText('reason', source.reason, INPUT_BOUNDS.reason);
    const end = { result: source.result, reason: source.reason };
    return recordResultOf(runId, await endRound(ctx.store, runId, end, actor));
  }
  const options: RecordOptions = {
    ...actor,
    ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
    ...(input.partial === true ? { result: 'partial' as const } : {}),
  };
  switch (source.kind) {
    case 'report':
      return recordResultOf(runId, await recordReport(ctx.store, runId, source.report, options));
    case 'markdown':
      return recordResultOf(runId, await recordFindingsMarkdown(ctx.store, runId, source.review, options));
    case 'wait': {
      const wait = { ...source.wait, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) };
      return recordResultOf(runId, await collectRound(ctx.store, runId, source.path, { ...options, wait }));
    }
  }
};
