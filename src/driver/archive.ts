import { type StoreRef, storeOf } from '../store/store.js';

/**
 * Archive an output (a stage's, a re-run reproduction's) for an event about to name it: on disk,
 * fsynced, before the event. Only for a run that exists: a mistyped run id is refused `run-missing`
 * before anything is written, instead of leaving an archive behind for a run nobody opened. (An
 * import archives before its run exists, through the store directly.)
 */
export const archiveForEvent = async (store: StoreRef, runId: string, bytes: Uint8Array): Promise<string> => {
  await storeOf(store).readRunSummary(runId);
  return storeOf(store).archiveOutput(runId, bytes);
};
