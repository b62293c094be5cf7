import type { PatchSide } from '@clearance/fold/internal/projections/observation.js';
import { ClearanceError } from '../errors.js';
import { git, gitBytes } from './git.js';

/**
 * The arguments that make a diff the same bytes whatever the user configured: no colour, no
 * external driver or textconv, git's own a/ b/ prefixes (patch-id reads them), binary files as
 * their content (a binary change would otherwise be only its blob ids), renames as a deletion and
 * an addition (their whole content, not a similarity index), paths from the top.
 */
const DIFF = [
  '-c',
  'diff.noprefix=false',
  '-c',
  'diff.mnemonicPrefix=false',
  'diff',
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
  '--no-renames',
  '--binary',
  '--full-index',
];

const gitOrWhy = async (
  repo: string,
  args: ReadonlyArray<string>,
): Promise<Readonly<{ out: string }> | Readonly<{ why: string }>> => {
  try {
    return { out: await git(repo, args) };
  } catch (error) {
    if (error instanceof ClearanceError && error.code === 'git-failed')
      return { why: String(error.details?.stderr ?? '') || error.message };
    throw error;
  }
};

/**
 * The patch `commit` makes against `base`: the diff from their merge base to it, as
 * `git patch-id --verbatim` hashes it (stable: the order of files does not count, and neither do
 * line numbers, so the same change applied further down a file is the same patch; verbatim:
 * whitespace counts, since in a Python file or a Makefile it is code). A commit the repository
 * does not hold, one with no merge base, or one that changes nothing has no patch to compare:
 * the side says why instead. Reads only.
 */
export const patchAgainst = async (repo: string, base: string, commit: string): Promise<PatchSide> => {
  const merged = await gitOrWhy(repo, ['merge-base', '--end-of-options', base, commit]);
  if ('why' in merged)
    return {
      id: null,
      why: `commit ${commit.slice(0, 12)} has no merge base with ${base.slice(0, 12)} in this repository (is it fetched?)`,
    };
  const from = merged.out.trim();
  // bytes, not text: two patches that differ only in bytes that are no UTF-8 must not read alike
  const diff = await gitBytes(repo, [...DIFF, '--end-of-options', from, commit]);
  if (diff.length === 0)
    return { id: null, why: `commit ${commit.slice(0, 12)} changes nothing against its merge base` };
  const id = (await git(repo, ['patch-id', '--verbatim'], { input: diff })).trim().split(' ')[0] ?? '';
  return /^[0-9a-f]{40,64}$/.test(id)
    ? { id, mergeBase: from }
    : { id: null, why: `git patch-id gave no id for commit ${commit.slice(0, 12)}` };
};
