import { ClearanceError, isClearanceError, refusal } from '../errors.js';
import type { FailureReason, RoundResult } from '../events/event.js';
import { rejection } from '../events/rejection.js';
import { printableLocation, waitForReportAt } from '../handoff/at.js';
import type { WaitOptions } from '../handoff/wait-budget.js';
import type { AppendResult } from '../store/append.js';
import { foldIntactFromCheckpoint, type StoreRef, storeOf } from '../store/store.js';
import type { ActorOptions } from './capture.js';
import { decidedAt } from './command.js';
import { recordReport } from './record.js';

const FAILURES: ReadonlyArray<string> = [
  'timeout',
  'incomplete',
  'malformed',
  'oversized',
] satisfies FailureReason[];

export type CollectOptions = ActorOptions &
  Readonly<{ wait?: WaitOptions; repo?: string; result?: RoundResult }>;

/**
 * `record --wait`: take the round and input from the run (its next round, its latest capture),
 * wait for that report to be published at `path`, and record it. A wait that fails (timeout,
 * incomplete, malformed, oversized) is appended as `round.failed` — the trail shows it and the
 * round stays open — and then reported as the failure it was.
 */
export const collectRound = async (
  store: StoreRef,
  runId: string,
  path: string,
  options: CollectOptions,
): Promise<AppendResult> => {
  const { state } = await foldIntactFromCheckpoint(store, runId);
  const run = state.run;
  const round = state.round + 1;
  if (run === null) throw refusal(rejection('not-opened', `run ${runId} has no run.opened event`));
  if (state.capture === null) {
    throw refusal(
      rejection(
        'no-revision',
        `no revision was captured for round ${round} of ${runId}: capture the input before waiting for its report`,
        ['round'],
      ),
    );
  }
  const expected = { runId, round, inputSha: state.capture.inputSha };
  let collected: Awaited<ReturnType<typeof waitForReportAt>>;
  try {
    collected = await waitForReportAt(path, expected, options.wait ?? {});
  } catch (error) {
    if (isClearanceError(error) && FAILURES.includes(error.code)) {
      // decided against the read it waited for: if the run moved on meanwhile the failure no
      // longer applies to it, and the wait's error is reported alone
      const failed = decidedAt(state, {
        kind: 'fail-round',
        runId,
        reason: error.code as FailureReason,
        detail: error.message,
      });
      await storeOf(store)
        .append(runId, failed, options)
        .catch((e: unknown) => {
          if (!isClearanceError(e)) throw e;
        });
    }
    throw error;
  }
  const { wait: _, ...recordOptions } = options;
  return recordReport(store, runId, collected.report, recordOptions).catch((e: unknown) => {
    if (isClearanceError(e)) {
      throw new ClearanceError(
        e.code,
        `the report published at ${printableLocation(path)} was refused: ${e.message}`,
        {
          ...e.details,
          waitedMs: collected.waitedMs,
        },
      );
    }
    throw e;
  });
};
