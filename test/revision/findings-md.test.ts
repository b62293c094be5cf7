import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { parseFindingsMarkdown } from '../../src/revision/index.js';

const GOOD = `# Review of round 2

Prose is ignored, even with - [brackets] in it.

- [major] src/a.ts:12 :: the handle leaks when the request is aborted
- [low] \`docs/guide.md § Install Steps\` :: the command needs sudo
  - [nit] \`src/b c.ts:3\` :: spaces in a path :: and a second separator in the text
- [high] docs/x.md § C++ :: Notes :: a heading with a separator in it, found by the first one

\`\`\`md
- [this is not parsed] because it is fenced
\`\`\`

## Not examined

- the generated client, because it is
  regenerated on every build
* vendor/
- [x] a task-list item is an item here, not a finding

## Later

- [medium] \`src/c.ts\`:7 :: backticks around the path only
`;

describe('parseFindingsMarkdown', () => {
  it('parses findings with backticks, sections and a Not examined list', () => {
    const parsed = parseFindingsMarkdown(GOOD);
    expect(E.isRight(parsed)).toBe(true);
    if (E.isLeft(parsed)) return;
    const finding = (file: string, at: object, severity: string, text: string) => ({
      file,
      ...at,
      category: 'prose',
      summary: text,
      severity,
      confirmed: true,
      evidence: text,
    });
    expect(parsed.right.candidates).toEqual([
      finding('src/a.ts', { line: 12 }, 'major', 'the handle leaks when the request is aborted'),
      finding('docs/guide.md', { section: 'Install Steps' }, 'low', 'the command needs sudo'),
      finding('src/b c.ts', { line: 3 }, 'nit', 'spaces in a path :: and a second separator in the text'),
      finding(
        'docs/x.md',
        { section: 'C++' },
        'high',
        'Notes :: a heading with a separator in it, found by the first one',
      ),
      finding('src/c.ts', { line: 7 }, 'medium', 'backticks around the path only'),
    ]);
    expect(parsed.right.notExamined).toEqual([
      'the generated client, because it is regenerated on every build',
      'vendor/',
      '[x] a task-list item is an item here, not a finding',
    ]);
    expect(parsed.right.candidates[1]).not.toHaveProperty('line');
    expect(parsed.right.candidates[0]).not.toHaveProperty('section');
  });

  it('gives an empty review for prose with no findings', () => {
    expect(parseFindingsMarkdown('Nothing to report.\n')).toEqual(
      E.right({ candidates: [], notExamined: [] }),
    );
  });

  it.each([
    ['no separator', '- [major] src/a.ts:12 the text', 'no " :: "'],
    ['no line or section', '- [major] src/a.ts :: text', 'neither path:line nor path § Heading'],
    ['a line range', '- [major] src/a.ts:3-9 :: text', 'neither path:line'],
    ['line zero', '- [major] src/a.ts:0 :: text', 'lines start at 1'],
    ['an empty severity', '- [ ] src/a.ts:1 :: text', 'severity is empty'],
    ['no closing bracket', '- [major src/a.ts:1 :: text', 'no closing "]"'],
    ['no text', '- [major] src/a.ts:1 ::', 'no text after'],
    ['an unclosed backtick', '- [major] `src/a.ts:1 :: text', 'never closes'],
  ])('refuses the whole review for a finding line with %s, quoting it', (_, bad, why) => {
    const text = `# Review\n\n- [major] src/ok.ts:1 :: fine\n${bad}\n- [major] src/ok.ts:2 :: fine\n`;
    const parsed = parseFindingsMarkdown(text);
    expect(E.isLeft(parsed)).toBe(true);
    if (E.isRight(parsed)) return;
    expect(parsed.left.code).toBe('findings-md-invalid');
    expect(parsed.left.line).toBe(4);
    expect(parsed.left.message).toContain(`findings line 4`);
    expect(parsed.left.message).toContain(`"${bad}"`);
    expect(parsed.left.message).toContain(why);
  });

  it('checks finding lines again once a later heading ends the Not examined list', () => {
    const parsed = parseFindingsMarkdown('## Not examined\n- [bad\n\n## Findings\n- [bad\n');
    expect(E.isLeft(parsed) && parsed.left.line).toBe(5);
  });
});
