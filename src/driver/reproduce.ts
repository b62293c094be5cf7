import * as E from 'fp-ts/lib/Either.js';
import type { ReproductionOutcome } from '../events/event.js';
import { resolveFindingRef } from '../projections/rules/finding-ref.js';
import type { AppendResult } from '../store/append.js';
import { type StoreRef, storeOf } from '../store/store.js';
import { archiveForEvent } from './archive.js';
import type { ActorOptions } from './capture.js';

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
  return storeOf(store).append(
    runId,
    (state) =>
      E.right([
        {
          type: 'reproduction.recorded',
          data: {
            round: state.round + 1,
            // no capture yet: evolve refuses it as no-revision, naming the fix
            inputSha: state.capture?.inputSha ?? '',
            findingId: resolveFindingRef(state.findings, reproduced.finding),
            outcome: reproduced.outcome,
            ...(outputSha === undefined ? {} : { outputSha }),
          },
        },
      ]),
    options,
  );
};
