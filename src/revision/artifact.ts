import { readFile } from 'node:fs/promises';
import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { ClearanceError } from '../errors.js';

const osError = (error: unknown): string => {
  const e = error as NodeJS.ErrnoException;
  return e.code !== undefined ? `${e.code}: ${e.message}` : String(error);
};

/** The SHA-256 of a document artifact's bytes: what a round of review of that document is bound to. */
export const artifactShaOf = async (path: string): Promise<string> => {
  try {
    return sha256Hex(await readFile(path));
  } catch (error) {
    throw new ClearanceError('artifact-unreadable', `cannot read artifact ${path}: ${osError(error)}`, {
      path,
      cause: osError(error),
    });
  }
};
