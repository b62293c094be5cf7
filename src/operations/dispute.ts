import { disputeReasonRejection } from '@clearance/fold/internal/events/dispute-reason.js';
import { resolveFindingRef } from '@clearance/fold/internal/projections/rules/finding-ref.js';
import { refusal } from '../errors.js';
import { appendCommand } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import type { DisputeOutput, ResultOf } from './schemas/results.js';

export type DisputeInput = Readonly<{
  runId: string;
  /** the finding id, or a unique prefix of at least 8 hex characters */
  finding: string;
  /** one line: why the finding is wrong, and nothing was changed for it */
  reason: string;
}>;

export type DisputeResult = ResultOf<typeof DisputeOutput>;

/**
 * The author disputes an open finding between rounds: the round in progress must rule on it. The
 * reason is checked here, the door every dispute passes; the round, the full id and every rule are
 * the fold's, under the lock.
 */
export const dispute = async (ctx: OperationContext, input: DisputeInput): Promise<DisputeResult> => {
  const { runId, finding, reason } = input;
  const refused = disputeReasonRejection(reason);
  if (refused !== undefined) throw refusal(refused);
  const result = await appendCommand(ctx.store, runId, { kind: 'dispute', finding, reason }, actorOf(ctx));
  const { state } = result.folded;
  return {
    runId,
    findingId: resolveFindingRef(state.findings, finding),
    round: state.round + 1,
    reason,
    seq: result.appended[0]?.seq ?? null,
    alreadyRecorded: result.alreadyRecorded,
    status: state.status,
  };
};
