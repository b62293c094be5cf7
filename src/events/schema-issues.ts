import type * as z from 'zod';
import { quoted } from './quoted.js';
import { formatPath } from './rejection.js';

/** One schema issue as a person reads it: where it is, and what was wrong there and what would do. */
export type SchemaIssue = Readonly<{ path: Array<string | number>; text: string }>;

/**
 * The one place zod's issues become messages, for every input checked against a schema (a round
 * report, a policy): the issue's path (`candidates[0].line`), or the key a misspelling added and
 * the fix. `what` names the whole input when an issue has no path (`report`, `policy`).
 */
export const describeIssue = (issue: z.core.$ZodIssue, what: string): SchemaIssue => {
  const path = issue.path.filter((k): k is string | number => typeof k !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const where = formatPath(path) || `the ${what}`;
    return {
      path: [...path, key],
      text: `unknown key ${issue.keys.map(quoted).join(', ')} in ${where} (misspelt?)`,
    };
  }
  return { path, text: `${formatPath(path) || what}: ${issueWords(issue)}` };
};

/** A value as a message shows what was found: briefly, and never more than a line. */
const foundText = (value: unknown): string => {
  if (value === undefined) return 'nothing (the key is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  const shown = JSON.stringify(value) ?? String(value);
  return `${typeof value === 'string' ? 'the text' : `the ${typeof value}`} ${shown.length > 60 ? `${shown.slice(0, 60)}…` : shown}`;
};

const A_TYPE: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

const sizeOf = (value: unknown): string =>
  typeof value === 'string'
    ? `${value.length} characters`
    : Array.isArray(value)
      ? `${value.length} items`
      : String(value);

const UNIT: Readonly<Record<string, string>> = { string: ' characters', array: ' items' };

/**
 * What was expected, what was found, and the fix, in clearance's words: zod's own messages
 * ("Invalid input: expected boolean, received undefined") are a library's. A message the schema
 * gives itself (a grammar's refinement, a pattern's explanation) is kept as it is.
 */
const issueWords = (issue: z.core.$ZodIssue): string => {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'invalid_type': {
      const expected = A_TYPE[issue.expected] ?? issue.expected;
      return `expected ${expected}, found ${foundText(input)}${input === undefined ? ': add it' : ''}`;
    }
    case 'invalid_value':
      return `expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`}, found ${foundText(input)}`;
    case 'too_big':
      if (!/^Too big/.test(issue.message)) return issue.message;
      return `expected at most ${String(issue.maximum)}${UNIT[issue.origin] ?? ''}, found ${sizeOf(input)}`;
    case 'too_small':
      if (!/^Too small/.test(issue.message)) return issue.message;
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      return `expected at least ${String(issue.minimum)}${UNIT[issue.origin] ?? ''}, found ${sizeOf(input)}`;
    case 'invalid_union':
      return `${foundText(input)} is none of the forms this field takes`;
    default:
      return /^Invalid /.test(issue.message)
        ? `${issue.message.replace(/^Invalid /, 'not a valid ')}`
        : issue.message;
  }
};

/** The first issue in full and up to three more in brief: one message that names every problem's place. */
export const describeIssues = (issues: ReadonlyArray<z.core.$ZodIssue>, what: string): SchemaIssue => {
  const described = issues.map((issue) => describeIssue(issue, what));
  const first = described[0] ?? { path: [], text: `not a ${what}` };
  const more =
    described.length > 1
      ? ` (and ${described.length - 1} more: ${described
          .slice(1, 4)
          .map((i) => i.text)
          .join('; ')})`
      : '';
  return { path: first.path, text: `${first.text}${more}` };
};
