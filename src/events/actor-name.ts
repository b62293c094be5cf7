import { CONTROL_CLASS, controlIn } from './control-characters.js';
import { quoted } from './quoted.js';
import { type Rejection, rejection } from './rejection.js';

/**
 * The grammar of a person's or a reviewer's name, wherever one comes in: a report's `reviewer`,
 * `--by` and `CLEARANCE_ACTOR`, a contribution's `--reviewer`, an MCP argument. A name is signed
 * into the log and printed beside what it did ("converged by ruling of …"), so it is one line of
 * printable text: not empty or only whitespace, at most 256 characters (UTF-16 code units, as
 * JSON Schema's `maxLength` counts), no control, bidi control or line separator, and well-formed
 * Unicode (a lone surrogate has no UTF-8 form to store it in).
 */
export const ACTOR_NAME_MAX = 256;

const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** What is wrong with `name` as a name, completing "the name …", or `undefined` when it is one. */
export const actorNameProblem = (name: string): string | undefined => {
  if (name === '') return 'is empty';
  if (name.trim() === '') return 'is only whitespace';
  if (name.length > ACTOR_NAME_MAX)
    return `is ${name.length} characters long, over the ${ACTOR_NAME_MAX} a name may have`;
  const control = controlIn(name);
  if (control !== undefined) return `holds ${control}`;
  if (LONE_SURROGATE.test(name)) return 'holds a lone surrogate (half of a UTF-16 pair)';
  return undefined;
};

/** The message that refuses `value` as a name, after the field's name: the value, what is wrong, the fix. */
export const invalidActorText = (value: string, problem: string): string =>
  `${quoted(value)} ${problem}: a name is one line of printable text, 1 to ${ACTOR_NAME_MAX} characters (e.g. ada, or "CI bot")`;

/**
 * `invalid-actor` for a name given as `field` (`--by`, `CLEARANCE_ACTOR`, `reviewer`), or `undefined`
 * when `name` is one. Every door that takes a name calls this, so all refuse alike.
 */
export const actorNameRejection = (name: string, field: string): Rejection | undefined => {
  const problem = actorNameProblem(name);
  return problem === undefined
    ? undefined
    : rejection('invalid-actor', `invalid name: ${field}: ${invalidActorText(name, problem)}`, [field]);
};

/** The rule as a JSON Schema `pattern` (with `maxLength` beside it): one printable line, not blank. */
export const ACTOR_NAME_PATTERN = `^(?=[\\s\\S]*\\S)[^${CONTROL_CLASS}]*$`;
