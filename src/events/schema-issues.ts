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
  return { path, text: `${formatPath(path) || what}: ${issue.message}` };
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
