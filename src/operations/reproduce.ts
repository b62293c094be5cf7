import type { ReproductionOutcome } from '@clearance/fold/internal/events/event.js';
import { resolveFindingRef } from '@clearance/fold/internal/projections/rules/finding-ref.js';
import { rerunsOn } from '@clearance/fold/internal/projections/rules/reproductions.js';
import { reproductionsPending } from '@clearance/fold/internal/projections/views/reproductions.js';
import { appendCommand, archiveForEvent } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import type { ReproduceOutput, ResultOf } from './schemas/results.js';

export type ReproduceInput = Readonly<{
  runId: string;
  /** the finding id, or a unique prefix of at least 8 hex characters */
  finding: string;
  outcome: ReproductionOutcome;
  /** what the reproduction printed, archived under the run */
  output?: Uint8Array;
}>;

export type ReproduceResult = ResultOf<typeof ReproduceOutput>;

/** Record what a finding's reproduction did when re-run on the input captured for the round in progress. */
export const reproduce = async (ctx: OperationContext, input: ReproduceInput): Promise<ReproduceResult> => {
  const { runId, finding, outcome } = input;
  const actor = actorOf(ctx);
  // the output is archived before the event names it; the round and input are read under the lock,
  // and every rule (a finding that carries a reproduction, one outcome per input) is evolve's
  const outputSha =
    input.output === undefined ? undefined : await archiveForEvent(ctx.store, runId, input.output);
  const result = await appendCommand(
    ctx.store,
    runId,
    { kind: 'reproduce', finding, outcome, outputSha },
    actor,
  );
  const { state } = result.folded;
  const round = state.round + 1;
  const inputSha = state.capture?.inputSha ?? '';
  const findingId = resolveFindingRef(state.findings, finding);
  // a retry appended nothing: the outcome (and output) on the record is the first one
  const recorded = rerunsOn(state, round, inputSha).find((r) => r.findingId === findingId);
  return {
    runId,
    round,
    inputSha,
    findingId,
    outcome,
    outputSha: recorded?.outputSha ?? null,
    seq: result.appended[0]?.seq ?? null,
    alreadyRecorded: result.alreadyRecorded,
    pending: reproductionsPending(state).length,
  };
};
