import type { Rename } from '@clearance/fold/internal/events/event.js';
import { git, nulFields } from './git.js';

export type Changes = Readonly<{ touchedFiles: string[]; renames: Rename[] }>;

/** Status letters whose record carries two paths (source, then destination). */
const TWO_PATHS = new Set(['R', 'C']);

/**
 * Parse `git diff --name-status -z`: each record is a status (`M`, `R087`, ...) and one path, or
 * for a rename or copy two. A rename touches its new path (findings move there); a copy touches
 * only the new file, the source is unchanged.
 */
export const parseNameStatus = (output: string): Changes => {
  const fields = nulFields(output);
  const touched = new Set<string>();
  const renames: Rename[] = [];
  for (let i = 0; i < fields.length; ) {
    const letter = (fields[i] ?? '').charAt(0);
    if (TWO_PATHS.has(letter)) {
      const from = fields[i + 1] ?? '';
      const to = fields[i + 2] ?? '';
      if (letter === 'R') renames.push({ from, to });
      touched.add(to);
      i += 3;
    } else {
      touched.add(fields[i + 1] ?? '');
      i += 2;
    }
  }
  return { touchedFiles: [...touched], renames };
};

/**
 * What changed from one reviewed input to the next. `--no-relative` and `--no-ext-diff` keep a
 * user's diff configuration from changing what the paths are; `-M` detects renames at git's
 * default similarity.
 */
export const changesBetween = async (repo: string, from: string, to: string): Promise<Changes> =>
  parseNameStatus(
    await git(repo, [
      '-c',
      'core.quotePath=false',
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--no-relative',
      '--name-status',
      '-M',
      '-z',
      '--end-of-options',
      from,
      to,
    ]),
  );
