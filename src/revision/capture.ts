import { capturePathsRejection } from '@clearance/fold/internal/events/capture-paths.js';
import type { RevisionCapturedData } from '@clearance/fold/internal/events/event.js';
import { ClearanceError, refusal } from '../errors.js';
import { type Changes, changesBetween } from './changes.js';
import { git } from './git.js';
import { inputShaOf } from './input-sha.js';
import { type CitedLine, lineMovesBetween } from './line-moves.js';
import { bindWorkspace } from './workspace.js';

export type CaptureOptions = Readonly<{
  round: number;
  repo?: string;
  /** path of a document artifact under review */
  artifact?: string;
  /** the name findings cite the artifact by, and that a changed artifact is touched as (default: `artifact`) */
  artifactName?: string;
  /** what round 1 is compared with (a branch, tag or commit); recorded as the commit it names */
  base?: string;
  /** bind to the working files instead of refusing a dirty work tree */
  allowDirty?: boolean;
  /** the store's directory: where it lies inside the work tree, it is no part of the input */
  store?: string;
  /** the run it is for, when there is one: a refusal's next step names it */
  runId?: string;
  /** what the last recorded round reviewed: its tree wins over its commit, which wins over `base` */
  lastReviewed?: Readonly<{ commit?: string; tree?: string; artifactSha?: string }>;
  /** the open findings that cite a line, where the last reviewed input has them: their lines are followed */
  findings?: ReadonlyArray<CitedLine>;
}>;

const NO_CHANGES: Changes = { touchedFiles: [], renames: [] };

export const resolveBase = async (
  repo: string | undefined,
  base: string | undefined,
): Promise<string | undefined> => {
  if (base === undefined) return undefined;
  if (repo === undefined) {
    throw new ClearanceError('usage', `base ${base} needs a repository to resolve it in`, { base });
  }
  try {
    return (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${base}^{commit}`])).trim();
  } catch (error) {
    if (error instanceof ClearanceError && error.code === 'git-failed') {
      throw new ClearanceError('git-failed', `base ${base} is not a commit in ${repo}: ${error.message}`, {
        ...error.details,
        base,
      });
    }
    throw error;
  }
};

/**
 * Capture the input of round `round`: what it is (commit, tree, artifact hash, one `inputSha`)
 * and what changed since the last reviewed input, so decisions can be asked for exactly the
 * findings whose files moved under them, and where their cited lines went (`moves`).
 */
export const captureRevision = async (options: CaptureOptions): Promise<RevisionCapturedData> => {
  const { repo, artifact, lastReviewed } = options;
  // a dirty tree's objects are kept: the record path resolves citations against that tree later
  const [bound, base] = await Promise.all([bindWorkspace(options, true), resolveBase(repo, options.base)]);
  const from = lastReviewed?.tree ?? lastReviewed?.commit ?? base;
  const to = bound.tree ?? bound.commit;
  const changes =
    repo !== undefined && from !== undefined && to !== undefined
      ? await changesBetween(repo, from, to)
      : NO_CHANGES;
  // fail closed: a name git reports that is no repository path (a newline, an ESC) refuses the
  // capture, since no review could cite it, decide on it or move a finding along it
  const refused = capturePathsRejection(changes, 'git', options.runId);
  if (refused !== undefined) throw refusal(refused);
  const reviewedFrom = lastReviewed?.tree ?? lastReviewed?.commit;
  const moves =
    repo !== undefined &&
    reviewedFrom !== undefined &&
    to !== undefined &&
    (options.findings ?? []).length > 0
      ? await lineMovesBetween(repo, reviewedFrom, to, changes, options.findings ?? [])
      : [];
  // a document artifact has no diff of its own: a new hash touches the whole document
  const artifactChanged =
    artifact !== undefined &&
    lastReviewed?.artifactSha !== undefined &&
    lastReviewed.artifactSha !== bound.artifactSha &&
    !changes.touchedFiles.includes(options.artifactName ?? artifact);
  return {
    round: options.round,
    inputSha: inputShaOf(bound),
    touchedFiles: artifactChanged
      ? [...changes.touchedFiles, options.artifactName ?? artifact]
      : changes.touchedFiles,
    renames: changes.renames,
    ...(bound.commit === undefined ? {} : { commit: bound.commit }),
    ...(bound.tree === undefined ? {} : { tree: bound.tree }),
    ...(bound.dirty === true ? { dirty: true } : {}),
    ...(bound.artifactSha === undefined ? {} : { artifactSha: bound.artifactSha }),
    ...(base === undefined ? {} : { base }),
    ...(moves.length === 0 ? {} : { moves }),
  };
};
