import type { Verdict } from '@clearance/fold/internal/events/report-types.js';

/**
 * A `Verdict:` line in a prose review (`Verdict: open`, `**Verdict:** pass`, `## Verdict: blocked`),
 * read as one of the report's verdicts so that the rule which checks a JSON report's `verdict`
 * checks this one too. Words that name no verdict clearance derives (`fail` could be open or
 * blocked) are reported back rather than guessed at.
 */

const VERDICT_LINE = /^verdict\s*:\s*(.*)$/i;

const DECLARED: ReadonlyMap<string, Verdict> = new Map([
  ['open', 'open'],
  ['blocked', 'blocked'],
  ['converged', 'converged'],
  ['pass', 'converged'],
  ['passed', 'converged'],
  ['approve', 'converged'],
  ['approved', 'converged'],
]);

export const VERDICT_WORDS = 'open, blocked or converged (pass)';

export type DeclaredVerdict = Readonly<{ verdict: Verdict }> | Readonly<{ unknown: string }>;

/** What one line of rendered text declares, if it is a `Verdict:` line. */
export const declaredVerdictOf = (line: string): DeclaredVerdict | undefined => {
  const m = VERDICT_LINE.exec(line.trim());
  if (m === null) return undefined;
  const word = /^[A-Za-z]+/.exec((m[1] ?? '').trim())?.[0]?.toLowerCase() ?? '';
  const verdict = DECLARED.get(word);
  return verdict === undefined ? { unknown: word } : { verdict };
};
