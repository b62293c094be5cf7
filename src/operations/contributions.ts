import path from 'node:path';
import type { AbsenceReason } from '@clearance/fold/internal/events/event.js';
import { REJECTION_CODES } from '@clearance/fold/internal/events/rejection.js';
import type { RoundReport } from '@clearance/fold/internal/events/report-types.js';
import type { Missing } from '@clearance/fold/internal/projections/commands.js';
import { ClearanceError, isClearanceError } from '../errors.js';
import { waitForReportAt } from '../handoff/at.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import { intact } from '../store/read.js';
import { appendCommand, decidedAt, expectedReport } from './command.js';
import { actorOf, checkedName, type OperationContext } from './context.js';
import { type RecordResult, recordResultOf } from './recorded.js';
import type { ContributeOutput, ResultOf } from './schemas/results.js';

export type ContributeInput = Readonly<{
  runId: string;
  /** the reviewer's report, already parsed (`parseReport`) by the door that read it */
  report: RoundReport;
  /** who reviewed; none for an anonymous reviewer */
  reviewer?: string;
}>;

export type ContributeResult = ResultOf<typeof ContributeOutput>;

/** Append one reviewer's report to the round in progress (close the round with `record` and the merge). */
export const contribute = async (
  ctx: OperationContext,
  input: ContributeInput,
): Promise<ContributeResult> => {
  if (input.reviewer !== undefined) checkedName(input.reviewer, 'reviewer');
  // checked by `evolve` under the lock like a round report: a refusal writes nothing
  const result = await appendCommand(
    ctx.store,
    input.runId,
    { kind: 'contribute', report: input.report, reviewer: input.reviewer },
    actorOf(ctx),
  );
  const { state } = result.folded;
  const round = state.round + 1;
  return {
    runId: input.runId,
    round,
    expert: input.reviewer ?? null,
    seq: result.appended[0]?.seq ?? null,
    alreadyRecorded: result.alreadyRecorded,
    contributions: state.contributions.filter((c) => c.round === round).map((c) => c.expert ?? 'anonymous'),
  };
};

/** A reviewer and where its report will be published. */
export type ReviewerSource = Readonly<{ reviewer: string; path: string }>;

export type CollectInput = Readonly<{
  runId: string;
  /** each reviewer and where its report will be published */
  reviewers: ReadonlyArray<ReviewerSource>;
  wait?: WaitOptions;
}>;

const ABSENCE_OF: Readonly<Record<string, AbsenceReason>> = {
  timeout: 'missing',
  aborted: 'missing',
  incomplete: 'malformed',
  malformed: 'malformed',
  oversized: 'oversized',
};

/**
 * Wait for every reviewer's published report under one deadline (each wait gets the same budget,
 * started together), append each contribution the moment it arrives and validates (a crash
 * mid-collection keeps what arrived), record a reviewer still missing, malformed, oversized or
 * refused by the rules at the deadline as absent with the reason, then close the round with the
 * merge. With no contribution at all the absences are recorded and the round stays open.
 */
export const collect = async (ctx: OperationContext, input: CollectInput): Promise<RecordResult> => {
  const { runId } = input;
  const sources = input.reviewers.map((s) => ({
    reviewer: checkedName(s.reviewer, 'reviewer'),
    path: path.resolve(s.path),
  }));
  const wait = { ...input.wait, ...(ctx.signal === undefined ? {} : { signal: ctx.signal }) };
  const actor = actorOf(ctx);
  const { state } = intact(await ctx.store.foldRun(runId));
  const expected = expectedReport(state, runId, 'capture it first');
  const missing: Missing[] = [];
  let appending: Promise<unknown> = Promise.resolve();
  const one = async ({ reviewer, path: at }: ReviewerSource): Promise<void> => {
    try {
      // in a store, each reviewer's report is its own row, keyed by the reviewer's name
      const collected = await waitForReportAt(at, expected, { ...wait, reviewer });
      // appends run one after another, in arrival order
      const appended = appending.then(() =>
        appendCommand(ctx.store, runId, { kind: 'contribute', report: collected.report, reviewer }, actor),
      );
      appending = appended.catch(() => undefined);
      await appended;
    } catch (error) {
      // a wait that failed, or a report the rules refused, is the reviewer's; anything else (the
      // lock, the store) is this process's failure and ends the collection
      const refusedByRule =
        isClearanceError(error) && (REJECTION_CODES as ReadonlyArray<string>).includes(error.code);
      if (!isClearanceError(error) || (!refusedByRule && ABSENCE_OF[error.code] === undefined)) throw error;
      const reason = ABSENCE_OF[error.code] ?? 'malformed';
      missing.push({ reviewer, reason, detail: error.message });
    }
  };
  await Promise.all(sources.map(one));
  await appending;
  const after = intact(await ctx.store.foldRun(runId));
  const heard = after.state.contributions.some((c) => c.round === expected.round);
  if (!heard) {
    // decided against that read: recorded absent for the round they were waited for, or refused
    await ctx.store.append(runId, decidedAt(after.state, { kind: 'absent', missing }), actor);
    throw new ClearanceError(
      'timeout',
      `no reviewer handed in a usable report for round ${expected.round} of ${runId}: ${missing.map((m) => `${m.reviewer} ${m.reason}`).join(', ')}; they are recorded absent and the round stays open`,
      // in the JSON the absences keep the log's spelling of the reviewer (`expert`)
      { missing: missing.map(({ reviewer, reason, detail }) => ({ expert: reviewer, reason, detail })) },
    );
  }
  return recordResultOf(runId, await appendCommand(ctx.store, runId, { kind: 'merge', missing }, actor));
};
