import { CONTROL_CLASS, controlIn } from './control-characters.js';
import { quoted } from './quoted.js';
import { formatPath, type Path, type Rejection, rejection } from './rejection.js';

/**
 * The grammar of a path inside a repository, as clearance takes one at the door (a candidate's or
 * a verification's `file`, a capture's touched files and renames): a relative POSIX path that
 * stays inside the repository. Names separated by single slashes; no name empty, `.` or `..`, so
 * no leading, trailing or doubled slash and no way out; no backslash (a Windows separator, or an
 * escape a later reader might honour); no drive letter or URL scheme before the first name (`C:`,
 * `file:`, any `scheme:`), which some reader would take as a place elsewhere; no control, bidi
 * control or line separator (`control-characters.ts`), which git, a terminal or a SARIF viewer
 * would act on (git stops reading a name at NUL: `a.js\u0000../../x` is `a.js` to it).
 *
 * Everything else is a name a repository may hold: spaces, any letter, `a..b.js`, `.github/x.yml`.
 */

/** A URL scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`) or a drive letter, and its colon. */
const SCHEME = '[A-Za-z][A-Za-z0-9+.-]*:';
const SCHEME_PREFIX = new RegExp(`^${SCHEME}`);

/**
 * What is wrong with `path` as a repository path, completing "the path …", or `undefined` when it
 * is one. Pure: it asks no file system whether the path exists.
 */
export const repoPathProblem = (path: string): string | undefined => {
  if (path === '') return 'is empty';
  const control = controlIn(path);
  if (control !== undefined) return `holds ${control}`;
  if (path.includes('\\')) return 'holds a backslash (names are separated by /)';
  if (path.startsWith('/')) return 'is absolute (it starts with /)';
  const scheme = SCHEME_PREFIX.exec(path)?.[0];
  if (scheme !== undefined) return `begins with ${quoted(scheme)}, a drive letter or URL scheme`;
  for (const name of path.split('/')) {
    if (name === '') return 'has an empty name (a doubled or trailing /)';
    if (name === '.') return 'has a "." name';
    if (name === '..') return 'has a ".." name, which climbs out of its directory';
  }
  return undefined;
};

/** What a path must be, after the reason: the fix, in every message that refuses one. */
export const PATH_RULE =
  'name the file by its path relative to the repository root, with / between names (e.g. src/app.ts)';

/** The message that refuses `value` as a path, after the field's name: the value, what is wrong, the fix. */
export const invalidPathText = (value: string, problem: string, fix: string = PATH_RULE): string =>
  `${quoted(value)} ${problem}: ${fix}`;

/**
 * `invalid-path` for the field at `path` (`touchedFiles[0]`) of `what` (`capture`), or `undefined`
 * when `value` is a repository path. `fix` says what to do, where the default would not fit.
 */
export const pathRejection = (
  value: string,
  path: Path,
  what: string,
  fix: string = PATH_RULE,
): Rejection | undefined => {
  const problem = repoPathProblem(value);
  if (problem === undefined) return undefined;
  return rejection(
    'invalid-path',
    `invalid ${what}: ${formatPath(path)}: ${invalidPathText(value, problem, fix)}`,
    path,
  );
};

const NAME = `(?!\\.\\.?(?:/|$))[^/\\\\${CONTROL_CLASS}]+`;

/**
 * The same grammar as a JSON Schema `pattern` (ECMA-262, read with the `u` flag, as Ajv does), for
 * `clearance schema report`: a property test holds it equal to `repoPathProblem`.
 */
export const REPO_PATH_PATTERN = `^(?!${SCHEME})${NAME}(?:/${NAME})*$`;
