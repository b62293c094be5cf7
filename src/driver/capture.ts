import { ClearanceError, refusal } from '../errors.js';
import { capturePathsRejection } from '../events/capture-paths.js';
import type { RevisionCapturedData } from '../events/event.js';
import { captureRevision } from '../revision/capture.js';
import type { AppendResult } from '../store/append.js';
import type { LockOptions } from '../store/lock.js';
import { foldIntactFromCheckpoint, type StoreRef, storeDirOf, storeOf } from '../store/store.js';
import { appendCommand } from './command.js';
import { artifactNameOf, type Subject } from './subject.js';

/** Who appends, how long they wait for the lock, and the clock the log's `at` is read from. */
export type ActorOptions = LockOptions & Readonly<{ by: string; now?: () => Date }>;

/**
 * Record what the next round reviews, named explicitly. The round number is the run's, read under
 * the lock. The names are someone's input (a flag, an MCP argument, a library caller): each must be
 * a repository path (`invalid-path`), checked here, the door every explicit capture passes.
 */
export const captureRound = (
  store: StoreRef,
  runId: string,
  capture: Omit<RevisionCapturedData, 'round'>,
  options: ActorOptions,
): Promise<AppendResult> => {
  const refused = capturePathsRejection(capture);
  if (refused !== undefined) return Promise.reject(refusal(refused));
  return appendCommand(store, runId, { kind: 'capture', capture }, options);
};

export type WorkspaceSource = Readonly<{
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
  /** review again the input the last round reviewed, as a recorded choice: why */
  sameInput?: Readonly<{ reason: string }>;
}>;

/**
 * Capture the next round's input from git and files: the commit (or the working tree), the
 * artifact's hash, and what changed since the last *reviewed* input. Defaults to the repository
 * and artifact the run was opened with. Appended only if nothing was appended meanwhile.
 */
export const captureWorkspace = async (
  store: StoreRef,
  runId: string,
  source: WorkspaceSource,
  options: ActorOptions,
): Promise<AppendResult> => {
  const read = await foldIntactFromCheckpoint(store, runId);
  const subject: Subject = read.state.run?.subject ?? {};
  const repo = source.repo ?? subject.repo;
  const artifact = source.artifact ?? subject.artifact;
  if (repo === undefined && artifact === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} was opened without --repo or --artifact: give one, or --input-sha`,
    );
  }
  const reviewed = read.state.reviewed;
  const name = artifactNameOf({ ...subject, ...(artifact === undefined ? {} : { artifact }) });
  const capture = await captureRevision({
    runId,
    round: read.state.round + 1,
    store: storeDirOf(storeOf(store)),
    ...(repo === undefined ? {} : { repo }),
    ...(artifact === undefined ? {} : { artifact }),
    ...(name === undefined ? {} : { artifactName: name }),
    ...(source.base === undefined ? {} : { base: source.base }),
    ...(source.allowDirty === undefined ? {} : { allowDirty: source.allowDirty }),
    ...(reviewed === null
      ? {}
      : {
          lastReviewed: {
            ...(reviewed.commit === undefined ? {} : { commit: reviewed.commit }),
            ...(reviewed.tree === undefined ? {} : { tree: reviewed.tree }),
            ...(reviewed.artifactSha === undefined ? {} : { artifactSha: reviewed.artifactSha }),
          },
        }),
  });
  // the diff was taken against what the run had reviewed when we read it: refuse if that moved
  const data = source.sameInput === undefined ? capture : { ...capture, sameInput: source.sameInput };
  // the round it was taken for is the one decided under the lock, as the expected seq holds it still
  return appendCommand(
    store,
    runId,
    { kind: 'capture', capture: data },
    { ...options, expectedSeq: read.lastSeq },
  );
};
