import { actorNameProblem, invalidActorText } from './actor-name.js';
import { invalidOneLineText, oneLineProblem } from './one-line.js';
import { invalidPathText, repoPathProblem } from './repo-path.js';

// The checks a round report's strings pass besides their length, each as a predicate and the
// message that refuses it. Kept apart from the zod schema (report.ts), which refines with exactly
// these functions, so that the precompiled shape check (report-shape.ts) runs the same code
// without loading zod.

/** A code point between U+D800 and U+DFFF in `u` mode is half a surrogate pair, alone. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** A lone surrogate has no UTF-8 form and no RFC 8785 canonical JSON: the report could not be hashed or stored as sent. */
export const isWellFormed = (s: string): boolean => !LONE_SURROGATE.test(s);
export const LONE_SURROGATE_TEXT =
  'contains a lone surrogate (half of a UTF-16 pair): text must be well-formed Unicode';

export const isRepoPath = (s: string): boolean => repoPathProblem(s) === undefined;
export const repoPathText = (s: string): string => invalidPathText(s, repoPathProblem(s) ?? '');

/** An empty file is left to the candidate rule, which has refused it as `empty-field` since v1. */
export const isCandidateFile = (s: string): boolean => s === '' || isRepoPath(s);

export const isOneLine = (s: string): boolean => oneLineProblem(s) === undefined;
export const oneLineText = (s: string): string => invalidOneLineText(s, oneLineProblem(s) ?? '');

/** A lone surrogate in a name is `invalid-text`, as in every string of a report: that check refuses it, not this one. */
export const isActorName = (s: string): boolean => !isWellFormed(s) || actorNameProblem(s) === undefined;
export const actorNameText = (s: string): string => invalidActorText(s, actorNameProblem(s) ?? '');

/** Every check by the name the report's shape (report-shape.ts) calls it. */
export const TEXT_CHECKS = {
  'well-formed': isWellFormed,
  'repo-path': isRepoPath,
  'candidate-file': isCandidateFile,
  'one-line': isOneLine,
  'actor-name': isActorName,
} as const satisfies Readonly<Record<string, (s: string) => boolean>>;

export type TextCheck = keyof typeof TEXT_CHECKS;
