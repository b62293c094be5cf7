import type { ReproductionOutcome } from '../events/event.js';
import type { AppendResult } from '../store/append.js';
import type { StoreRef } from '../store/store.js';
import { archiveForEvent } from './archive.js';
import type { ActorOptions } from './capture.js';
import { appendCommand } from './command.js';

export type Reproduced = Readonly<{
  /** the finding's id, or a unique prefix of 8+ hex characters */
  finding: string;
  outcome: ReproductionOutcome;
  /** what the reproduction printed, archived under the run by its SHA-256 before the event names it */
  output?: Uint8Array;
}>;

/**
 * Record what a finding's reproduction did when re-run on the input captured for the round in
 * progress (`reproduction.recorded`). The round and input are read under the lock; every rule
 * (a finding that carries a reproduction, one outcome per input) is evolve's.
 */
export const recordReproduction = async (
  store: StoreRef,
  runId: string,
  reproduced: Reproduced,
  options: ActorOptions,
): Promise<AppendResult> => {
  const outputSha =
    reproduced.output === undefined ? undefined : await archiveForEvent(store, runId, reproduced.output);
  return appendCommand(
    store,
    runId,
    { kind: 'reproduce', finding: reproduced.finding, outcome: reproduced.outcome, outputSha },
    options,
  );
};
