import { appendFile, writeFile } from 'node:fs/promises';
import { ClearanceError } from '../errors.js';

/**
 * Write (or append to) a file a command was told to produce. A directory that is missing, read-only
 * or full is the machine's state, not a bug: it ends as `output-unwritable` (exit 73), naming the file.
 */
export const writeOutputFile = async (
  file: string,
  text: string,
  how: 'write' | 'append',
  what: string,
): Promise<void> => {
  try {
    await (how === 'write' ? writeFile(file, text) : appendFile(file, text));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'unknown';
    throw new ClearanceError(
      'output-unwritable',
      `cannot write ${what} ${file} (${code}): check the path and its directory`,
      {
        file,
        cause: code,
      },
    );
  }
};
