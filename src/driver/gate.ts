import { ClearanceError } from '../errors.js';
import { type GateVerdict, gateOf } from '../projections/views/gate.js';
import { observeWorkspace } from '../revision/observe.js';
import { foldIntactFromCheckpoint, type StoreRef, storeDirOf, storeOf } from '../store/store.js';

export type GateSource = Readonly<{ repo?: string; artifact?: string }>;

/**
 * Ask the gate: observe what is in front of it now (defaulting to the run's repository and
 * artifact) and compare with what the last recorded round reviewed. Reads only; never writes.
 */
export const gate = async (store: StoreRef, runId: string, source: GateSource = {}): Promise<GateVerdict> => {
  const { state } = await foldIntactFromCheckpoint(store, runId);
  const reviewed = state.reviewed;
  const subject = state.run?.subject ?? {};
  const repo = source.repo ?? subject.repo;
  const artifact = source.artifact ?? subject.artifact;
  const needsRepo = reviewed?.commit !== undefined && state.status === 'converged';
  if (needsRepo && repo === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} reviewed commit ${reviewed?.commit}: give --repo so the gate can compare HEAD`,
    );
  }
  if (reviewed?.artifactSha !== undefined && state.status === 'converged' && artifact === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} reviewed an artifact: give --artifact so the gate can compare its bytes`,
    );
  }
  const now =
    reviewed === null || state.status !== 'converged'
      ? {}
      : await observeWorkspace({
          ...(repo === undefined || reviewed.commit === undefined ? {} : { repo }),
          ...(artifact === undefined || reviewed.artifactSha === undefined ? {} : { artifact }),
          workingTree: reviewed.dirty === true,
          store: storeDirOf(storeOf(store)),
        });
  return gateOf(state, now);
};
