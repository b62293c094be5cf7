import { mkdir, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ClearanceError } from '../errors.js';
import { artifactShaOf } from './artifact.js';
import { git, nulFields } from './git.js';
import type { BoundInput } from './input-sha.js';

export type Workspace = BoundInput;

export type WorkspaceOptions = Readonly<{
  repo?: string;
  artifact?: string;
  allowDirty?: boolean;
  /** the store's directory: where it lies inside the work tree, its files are no part of the review */
  store?: string;
}>;

const SHOWN_PATHS = 5;

type Head = Readonly<{ commit: string; tree: string; up: string }>;

/**
 * HEAD's commit and tree, and the way up from `repo` to the top of its work tree (`--show-cdup`,
 * which unlike `--show-toplevel` still answers inside `.git`, so that case is refused below as
 * not a work tree). Refuses anything that is not a work tree (a bare repository, `.git`).
 */
const headOf = async (repo: string): Promise<Head> => {
  const [inside, up, commit, tree] = (
    await git(repo, ['rev-parse', '--is-inside-work-tree', '--show-cdup', 'HEAD', 'HEAD^{tree}'])
  )
    .trim()
    .split('\n');
  if (inside !== 'true' || up === undefined || commit === undefined || tree === undefined) {
    throw new ClearanceError('not-a-repository', `${repo} is not inside a git work tree`, { repo });
  }
  return { commit, tree, up };
};

/** `path` with symbolic links resolved as far as it exists: a store may not have been made yet. */
const canonical = async (path: string): Promise<string> => {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await canonical(parent), basename(path));
  }
};

/**
 * The pathspecs that leave the store out of everything read from the work tree, when it lies
 * strictly inside it. Both sides are compared with symbolic links resolved, as git walks them. A
 * store in git's own directory, or outside the work tree, needs none.
 */
const leavingOut = async (repo: string, up: string, store: string | undefined): Promise<string[]> => {
  if (store === undefined) return [];
  const top = resolve(await canonical(repo), up);
  const inside = relative(top, await canonical(store));
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return [];
  return ['--', ':(top)', `:(top,literal,exclude)${inside.split(sep).join('/')}`];
};

/**
 * Paths with staged, unstaged or untracked (not ignored) changes. `--no-optional-locks` stops
 * status from refreshing the user's index as a side effect: capture reads, it never writes there.
 */
const changedPaths = async (repo: string, leaveOut: ReadonlyArray<string>): Promise<string[]> => {
  const fields = nulFields(
    await git(repo, [
      '--no-optional-locks',
      '-c',
      'core.quotePath=false',
      'status',
      '--porcelain=v1',
      '-z',
      '--untracked-files=all',
      ...leaveOut,
    ]),
  );
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] ?? '';
    paths.push(entry.slice(3));
    // a rename or copy record is followed by its source path, which is not a change of its own
    if (/[RC]/.test(entry.slice(0, 2))) i++;
  }
  return paths;
};

const dirtyTree = (repo: string, paths: ReadonlyArray<string>): ClearanceError => {
  const shown = paths.slice(0, SHOWN_PATHS).join(', ');
  const more = paths.length > SHOWN_PATHS ? ` and ${paths.length - SHOWN_PATHS} more` : '';
  return new ClearanceError(
    'dirty-tree',
    `the work tree of ${repo} has uncommitted changes (${shown}${more}): commit or stash them, or pass --allow-dirty to bind the review to the working tree instead of HEAD`,
    { repo, paths: paths.slice(0, SHOWN_PATHS), count: paths.length },
  );
};

/**
 * The tree id of the working files (tracked and untracked, minus ignored), built in a temporary
 * index so the user's index is never touched. With `persist` the new blobs and tree go into the
 * repository, where a later citation check can read them; without it they go to a scratch object
 * directory that borrows the repository's objects, so an inspection writes nothing there.
 */
const workingTreeOf = async (
  repo: string,
  persist: boolean,
  leaveOut: ReadonlyArray<string>,
): Promise<string> => {
  const scratch = await mkdtemp(join(tmpdir(), 'clearance-index-'));
  try {
    const env: Record<string, string> = { GIT_INDEX_FILE: join(scratch, 'index') };
    if (!persist) {
      const objects = (
        await git(repo, ['rev-parse', '--path-format=absolute', '--git-path', 'objects'])
      ).trim();
      await mkdir(join(scratch, 'objects'));
      env.GIT_OBJECT_DIRECTORY = join(scratch, 'objects');
      env.GIT_ALTERNATE_OBJECT_DIRECTORIES = objects;
    }
    await git(repo, ['read-tree', 'HEAD'], { env });
    await git(repo, ['add', '-A', ...leaveOut], { env });
    return (await git(repo, ['write-tree'], { env })).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};

const inspectRepository = async (
  repo: string,
  options: WorkspaceOptions,
  persist: boolean,
): Promise<Workspace> => {
  const { up, ...head } = await headOf(repo);
  const leaveOut = await leavingOut(repo, up, options.store);
  const changed = await changedPaths(repo, leaveOut);
  if (changed.length === 0) return head;
  if (options.allowDirty !== true) throw dirtyTree(repo, changed);
  const tree = await workingTreeOf(repo, persist, leaveOut);
  // changes that cancel out (a staged edit reverted in the work tree) leave HEAD's own files
  return tree === head.tree ? head : { ...head, tree, dirty: true };
};

/** What is bound now; `persist` decides whether a dirty tree's objects are kept in the repository. */
export const bindWorkspace = async (options: WorkspaceOptions, persist: boolean): Promise<Workspace> => {
  const { repo, artifact } = options;
  if (repo === undefined && artifact === undefined) {
    throw new ClearanceError('usage', 'nothing to capture: give a repository, an artifact, or both');
  }
  const [code, artifactSha] = await Promise.all([
    repo === undefined ? undefined : inspectRepository(repo, options, persist),
    artifact === undefined ? undefined : artifactShaOf(artifact),
  ]);
  return { ...code, ...(artifactSha === undefined ? {} : { artifactSha }) };
};

/**
 * What is in front of us now (HEAD, or with `allowDirty` the working files; the artifact's bytes),
 * for the gate to compare with what the last recorded round reviewed. It refuses a dirty tree
 * exactly as a capture does, and writes nothing outside a temporary directory.
 */
export const inspectWorkspace = (options: WorkspaceOptions): Promise<Workspace> =>
  bindWorkspace(options, false);
