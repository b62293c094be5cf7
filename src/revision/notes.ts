import { git } from './git.js';

/**
 * Attestations kept beside the commits they are about, as git notes under one ref of clearance's
 * own (`refs/notes/clearance`), through git itself: a note never rewrites a commit, and the ref is
 * pushed and fetched like any other (`git push origin refs/notes/clearance`).
 */
export const NOTES_REF = 'refs/notes/clearance';

/** Write `text` as the note on `commit`, replacing the one it had (the latest attestation wins). */
export const writeNote = async (repo: string, commit: string, text: string): Promise<void> => {
  await git(repo, ['notes', `--ref=${NOTES_REF}`, 'add', '--force', '--file=-', '--end-of-options', commit], {
    input: text,
  });
};

/** Every commit that carries a note, with the note's blob. Empty when the ref does not exist yet. */
export const notedCommits = async (
  repo: string,
): Promise<ReadonlyArray<{ note: string; commit: string }>> => {
  const exists = await git(repo, ['for-each-ref', '--format=%(refname)', NOTES_REF]);
  if (exists.trim() === '') return [];
  return (await git(repo, ['notes', `--ref=${NOTES_REF}`, 'list']))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [note = '', commit = ''] = l.split(' ');
      return { note, commit };
    });
};

/** A blob's text (a note's body). */
export const blobText = (repo: string, blob: string): Promise<string> =>
  git(repo, ['cat-file', 'blob', '--end-of-options', blob]);

/** Each commit of a range as git reads it (`main~50..main`), newest first, with its tree. */
export const commitsWithTrees = async (
  repo: string,
  range: string,
): Promise<ReadonlyArray<{ commit: string; tree: string }>> =>
  (await git(repo, ['log', '--format=%H %T', '--end-of-options', range, '--']))
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [commit = '', tree = ''] = l.split(' ');
      return { commit, tree };
    });

/** The trees of the given commits, by commit (one `git log --no-walk` for all of them). */
export const treesOf = async (
  repo: string,
  commits: ReadonlyArray<string>,
): Promise<ReadonlyMap<string, string>> => {
  if (commits.length === 0) return new Map();
  const out = await git(repo, ['log', '--no-walk=unsorted', '--format=%H %T', '--stdin'], {
    input: `${commits.join('\n')}\n`,
  });
  return new Map(
    out
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.split(' ') as [string, string]),
  );
};

/** The commit a revision names in `repo` (`HEAD`, a branch, a sha). */
export const commitOf = async (repo: string, rev: string): Promise<string> =>
  (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${rev}^{commit}`])).trim();
