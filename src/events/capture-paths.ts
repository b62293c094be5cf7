import type { RevisionCapturedData } from './event.js';
import { stepTo } from './next-step.js';
import type { Rejection } from './rejection.js';
import { PATH_RULE, pathRejection } from './repo-path.js';

export type CapturedPaths = Pick<RevisionCapturedData, 'touchedFiles' | 'renames'>;

/** Where a capture's names came from, for the fix a message gives: whoever typed them, or git. */
export type CaptureSource = 'input' | 'git';

const FIX: Readonly<Record<CaptureSource, string>> = {
  input: PATH_RULE,
  // a name already in the reviewed input shows again when it is renamed or removed: then only
  // naming the changes explicitly gets past it
  git: 'git reports a file of that name changed since the last reviewed input, and no finding can name it; rename the file in a new commit if it is new since then, or name the changes yourself: an input sha with its touched files',
};

/**
 * A new capture's paths, checked at the door (`repo-path.ts`): each touched file and both sides of
 * each rename. Decisions are asked for by these names and findings move along the renames, so a
 * name that is no repository path is refused `invalid-path`, naming it, before anything is written.
 * Never asked of a capture read back from a log: those are judged by the rules alone.
 */
export const capturePathsRejection = (
  capture: CapturedPaths,
  source: CaptureSource = 'input',
  runId?: string,
): Rejection | undefined => {
  const refused = firstBadPath(capture, source);
  // past a name git reports, only naming the changes gets: the next step says how
  return refused === undefined || source === 'input'
    ? refused
    : { ...refused, next: stepTo('capture', runId, { inputSha: true, touched: true }) };
};

const firstBadPath = (capture: CapturedPaths, source: CaptureSource): Rejection | undefined => {
  const at = (value: string, path: ReadonlyArray<string | number>) =>
    pathRejection(value, path, 'capture', FIX[source]);
  for (const [i, file] of capture.touchedFiles.entries()) {
    const refused = at(file, ['touchedFiles', i]);
    if (refused !== undefined) return refused;
  }
  for (const [i, { from, to }] of capture.renames.entries()) {
    const refused = at(from, ['renames', i, 'from']) ?? at(to, ['renames', i, 'to']);
    if (refused !== undefined) return refused;
  }
  return undefined;
};
