import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { ClearanceError } from '../errors.js';

export type BoundInput = Readonly<{ commit?: string; tree?: string; dirty?: boolean; artifactSha?: string }>;

/**
 * What a round reviews, as one id: the commit (the working tree's id when it was dirty), the
 * artifact's hash, or when both are bound the SHA-256 of `commitOrTree:artifactSha`, so that a
 * change to either side makes a new input. The only place this rule lives.
 */
export const inputShaOf = (input: BoundInput): string => {
  if (input.dirty === true && input.tree === undefined) {
    throw new ClearanceError('usage', 'a capture of a dirty work tree needs the working tree id');
  }
  const code = input.dirty === true ? input.tree : (input.commit ?? input.tree);
  if (code !== undefined && input.artifactSha !== undefined) return sha256Hex(`${code}:${input.artifactSha}`);
  const sole = code ?? input.artifactSha;
  if (sole === undefined) {
    throw new ClearanceError('usage', 'nothing is bound: an input needs a commit, a tree or an artifact');
  }
  return sole;
};
