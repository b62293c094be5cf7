import { actorNameProblem, invalidActorText } from './actor-name.js';
import { invalidOneLineText, oneLineProblem } from './one-line.js';
import { invalidPathText, repoPathProblem } from './repo-path.js';

// The checks a round report's strings pass besides their length, each as a predicate and the
// message that refuses it. The zod schema (round-report.ts) refines with exactly these functions,
// and the parser zod's compiler makes of it at build time imports them by name
// (scripts/compile-report-parser.mjs), so both run the same code.

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
