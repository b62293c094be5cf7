import type { GateObservation } from '@clearance/fold/internal/projections/observation.js';
import { artifactShaOf } from './artifact.js';
import { git } from './git.js';
import { inspectWorkspace } from './workspace.js';

export type Observed = GateObservation;

export type ObserveOptions = Readonly<{
  repo?: string;
  artifact?: string;
  workingTree?: boolean;
  /** the store's directory: where it lies inside the work tree, the working files leave it out */
  store?: string;
}>;

/**
 * Observe what an approval would be about. A review bound to a commit is compared with HEAD, not
 * with uncommitted edits (those are not what gets merged); a review bound to a dirty work tree is
 * compared with the working files. Reads only: a working tree id is built in a scratch object
 * directory, never in the repository or the user's index.
 */
export const observeWorkspace = async (options: ObserveOptions): Promise<Observed> => {
  const { repo, artifact } = options;
  const [head, working, artifactSha] = await Promise.all([
    repo === undefined ? undefined : git(repo, ['rev-parse', 'HEAD', 'HEAD^{tree}']),
    repo === undefined || options.workingTree !== true
      ? undefined
      : inspectWorkspace({
          repo,
          allowDirty: true,
          ...(options.store === undefined ? {} : { store: options.store }),
        }),
    artifact === undefined ? undefined : artifactShaOf(artifact),
  ]);
  const [commit, tree] = head?.trim().split('\n') ?? [];
  return {
    ...(commit === undefined ? {} : { commit }),
    ...(tree === undefined ? {} : { tree }),
    ...(working?.tree === undefined ? {} : { workingTree: working.tree }),
    ...(artifactSha === undefined ? {} : { artifactSha }),
  };
};
