import path from 'node:path';
import type { RunOpenedData } from '@clearance/fold/internal/events/event.js';

export type Subject = RunOpenedData['subject'];

/**
 * The name findings cite a document artifact by: its path inside the repository when it lives
 * there (`docs/design.md`), else its file name.
 */
export const artifactNameOf = (subject: Subject): string | undefined => {
  if (subject.artifact === undefined) return undefined;
  if (subject.repo !== undefined) {
    const inside = path.relative(subject.repo, subject.artifact);
    if (inside !== '' && !inside.startsWith('..') && !path.isAbsolute(inside))
      return inside.split(path.sep).join('/');
  }
  return path.basename(subject.artifact);
};
