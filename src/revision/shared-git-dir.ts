import { isClearanceError } from '../errors.js';
import { git } from './git.js';

/**
 * The git directory every work tree of the repository around `dir` shares (`git rev-parse
 * --git-common-dir`, absolute), or `undefined` when `dir` is not inside a work tree (a plain
 * directory, a bare repository, the inside of `.git`, or no usable git here). One git call, because
 * every store-using command asks it before doing anything else.
 */
export const sharedGitDirOf = async (dir: string): Promise<string | undefined> => {
  try {
    const [inside, common] = (
      await git(dir, ['rev-parse', '--is-inside-work-tree', '--path-format=absolute', '--git-common-dir'])
    )
      .trim()
      .split('\n');
    return inside === 'true' && common !== undefined && common !== '' ? common : undefined;
  } catch (error) {
    // without a work tree git can answer for, the caller's default applies; a command that needs
    // git (capture, gate) says itself what is wrong with the repository
    if (isClearanceError(error)) return undefined;
    throw error;
  }
};
