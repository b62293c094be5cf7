import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { type FindingsMd, type FindingsMdError, parseFindingsMarkdown } from '../../src/revision/index.js';

const DEFAULT = { severities: ['major', 'nit'] };
const ISSUEFLOW = { severities: ['critical', 'high', 'medium', 'low'] };
const MIXED = { severities: ['major', 'nit', 'high', 'medium', 'low'] };

const parsed = (text: string | Uint8Array, v = ISSUEFLOW): FindingsMd => {
  const result = parseFindingsMarkdown(text, v);
  if (E.isLeft(result)) throw new Error(`expected a review, got: ${result.left.message}`);
  return result.right;
};

const refused = (text: string | Uint8Array, v = ISSUEFLOW): FindingsMdError => {
  const result = parseFindingsMarkdown(text, v);
  if (E.isRight(result)) throw new Error(`expected a refusal, got ${JSON.stringify(result.right)}`);
  expect(result.left.code).toBe('findings-md-invalid');
  return result.left;
};

const finding = (file: string, at: object, severity: string, text: string) => ({
  file,
  ...at,
  category: 'prose',
  summary: text,
  severity,
  confirmed: true,
  evidence: text,
});

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
    const review = parsed(GOOD, MIXED);
    expect(review.candidates).toEqual([
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
    expect(review.notExamined).toEqual([
      'the generated client, because it is regenerated on every build',
      'vendor/',
      '[x] a task-list item is an item here, not a finding',
    ]);
    expect(review.candidates[1]).not.toHaveProperty('line');
    expect(review.candidates[0]).not.toHaveProperty('section');
  });

  it('gives an empty review for prose with no findings, and no Not examined when there is no such heading', () => {
    expect(parsed('Nothing to report.\n')).toEqual({ candidates: [], decisions: [] });
  });

  // every style that, read line by line, used to drop the finding and record the round converged
  it.each([
    ['a * bullet', '* [high] app.js:2 :: the handle is never closed'],
    ['two spaces after the marker', '-  [high] app.js:2 :: the handle is never closed'],
    ['a tab after the marker', '-\t[high] app.js:2 :: the handle is never closed'],
    ['a + bullet', '+ [high] app.js:2 :: the handle is never closed'],
    ['an ordered item', '1. [high] app.js:2 :: the handle is never closed'],
    ['an ordered item with )', '7) [high] app.js:2 :: the handle is never closed'],
    ['a bold severity', '- **[high]** app.js:2 :: the handle is never closed'],
    ['an emphasised severity', '- _[high]_ app.js:2 :: the handle is never closed'],
    ['emphasis inside the bracket', '- [**high**] app.js:2 :: the handle is never closed'],
    ['the whole item in bold', '- **[high] app.js:2 :: the handle is never closed**'],
    ['a block quote', '> - [high] app.js:2 :: the handle is never closed'],
    ['a nested quote and list', '> > 1. - [high] app.js:2 :: the handle is never closed'],
    ['a nested item', '- the first pass\n    - [high] app.js:2 :: the handle is never closed'],
    ['a task box in front', '- [ ] [high] app.js:2 :: the handle is never closed'],
    ['an upper-case severity', '- [HIGH] app.js:2 :: the handle is never closed'],
    ['CRLF line endings', '# Review\r\n\r\n- [high] app.js:2 :: the handle is never closed\r\n'],
    ['a byte order mark', '\uFEFF- [high] app.js:2 :: the handle is never closed'],
  ])('reads a finding in %s', (_, text) => {
    expect(parsed(text).candidates).toEqual([
      finding('app.js', { line: 2 }, 'high', 'the handle is never closed'),
    ]);
  });

  it('keeps the underscores and asterisks of a path as typed', () => {
    expect(
      parsed('- [low] src/__init__.py:3 :: x\n- [low] src/*_a_*.ts:4 :: y\n').candidates.map((c) => c.file),
    ).toEqual(['src/__init__.py', 'src/*_a_*.ts']);
  });

  it('joins a finding text that wraps onto the next lines', () => {
    expect(parsed('> - [high] a.js:1 :: the handle\n>   is never\nclosed\n').candidates[0]?.summary).toBe(
      'the handle is never closed',
    );
  });

  it('reads decisions, with the id as typed', () => {
    const review = parsed(
      '## Findings\n- [fixed] 827f9ded38b8 :: closed in a finally block\n* [Open] `827F9DED` :: still leaks\n1. [withdrawn] 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef :: not a bug\n',
    );
    expect(review.decisions).toEqual([
      { id: '827f9ded38b8', status: 'fixed', evidence: 'closed in a finally block' },
      { id: '827F9DED', status: 'open', evidence: 'still leaks' },
      {
        id: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
        status: 'withdrawn',
        evidence: 'not a bug',
      },
    ]);
    expect(review.candidates).toEqual([]);
  });

  it('reads a reopening like the other decisions', () => {
    const review = parsed(
      '## Findings\n- [reopened] 827f9ded38b8 :: the leak is back since the pool change\n- **[Reopened]** `827F9DED` :: again\n',
    );
    expect(review.decisions).toEqual([
      { id: '827f9ded38b8', status: 'reopened', evidence: 'the leak is back since the pool change' },
      { id: '827F9DED', status: 'reopened', evidence: 'again' },
    ]);
  });

  it('reads Not examined as a paragraph, and a sub-heading stays inside it', () => {
    expect(parsed('## Not examined\n\nThe generated client:\nit is regenerated.\n').notExamined).toEqual([
      'The generated client: it is regenerated.',
    ]);
    expect(
      parsed('## Not examined\n### Generated\n- the client\n## Findings\n- [low] a:1 :: t\n'),
    ).toMatchObject({
      notExamined: ['the client'],
      candidates: [finding('a', { line: 1 }, 'low', 't')],
    });
  });

  it('lets a list item that does not start with a bracket be prose outside a Findings section', () => {
    expect(
      parsed('## Summary\n- the code is tidy\n- [docs](https://example.com) say so\n- [ ] run the tests\n'),
    ).toEqual({
      candidates: [],
      decisions: [],
    });
  });

  it.each([
    ['no separator', '- [major] src/a.ts:12 the text', 'no " :: "'],
    ['no line or section', '- [major] src/a.ts :: text', 'neither path:line nor path § Heading'],
    ['a line range', '- [major] src/a.ts:3-9 :: text', 'neither path:line'],
    ['line zero', '- [major] src/a.ts:0 :: text', 'lines start at 1'],
    [
      'a line that is not a safe integer',
      '- [major] a.js:99999999999999999999999 :: text',
      'not a safe integer',
    ],
    ['an empty severity', '- [] src/a.ts:1 :: text', 'severity is empty'],
    ['no severity at all', '- [ ] src/a.ts:1 :: text', 'no [severity] in front'],
    ['no closing bracket', '- [major src/a.ts:1 :: text', 'no closing "]"'],
    ['no text', '- [major] src/a.ts:1 ::', 'no text after'],
    ['an unclosed backtick', '- [major] `src/a.ts:1 :: text', 'never closes'],
    [
      'a word that is no severity of the policy',
      '- [blocker] src/a.ts:1 :: text',
      '[blocker] is neither a severity',
    ],
    ['a bracket with no space after it', '- [major]src/a.ts:1 :: text', 'not followed by a space'],
    ['a decision on an id that is not hex', '- [fixed] the-leak :: closed', 'is not a finding id'],
    ['a severity inside markup', '- <b>[major]</b> src/a.ts:1 :: text', 'wrapped in markup'],
  ])('refuses the whole review for a finding with %s, quoting its line', (_, bad, why) => {
    const text = `# Review\n\n- [major] src/ok.ts:1 :: fine\n${bad}\n- [major] src/ok.ts:2 :: fine\n`;
    const error = refused(text, DEFAULT);
    expect(error.line).toBe(4);
    expect(error.message).toContain('findings line 4');
    expect(error.message).toContain(JSON.stringify(bad));
    expect(error.message).toContain(why);
  });

  it.each([
    [
      'under Not examined',
      '## Not examined\n- the client\n- [high] app.js:2 :: leak\n',
      3,
      'under Not examined',
    ],
    [
      'under Not examined, in a paragraph',
      '## Not examined\nThe client.\n[high] app.js:2 :: leak\n',
      3,
      'under Not examined',
    ],
    ['in a paragraph', 'Findings:\n[high] app.js:2 :: leak\n', 2, 'outside a list item'],
    ['on the second line of an item', '- [high] a.js:1 :: one\n[low] b.js:2 :: two\n', 2, 'second line'],
    ['in a heading', '## [high] app.js:2 :: leak\n', 1, 'in a heading'],
    ['in a visible HTML block', '<details>\n- [high] app.js:2 :: leak\n</details>\n', 2, 'HTML block'],
    ['with no severity, in a paragraph', 'app.js:2 :: leak\n', 1, 'no [severity] in front'],
  ])('refuses a finding %s as misplaced', (_, text, line, why) => {
    const error = refused(text);
    expect(error.line).toBe(line);
    expect(error.message).toContain(why);
  });

  it('refuses a prose item under Findings, as issueflow refuses it', () => {
    const error = refused('## Findings\n\n- [high] a.js:1 :: fine\n- the root cause seems shaky to me\n');
    expect(error).toMatchObject({ line: 4 });
    expect(error.message).toContain('under Findings every list item is a finding or a decision');
    expect(error.message).toContain('"- the root cause seems shaky to me"');
  });

  it.each([
    ['the issue’s line zero', '<!-- - [major] src/a.js:0 :: line zero -->\n', 1, MIXED],
    ['a comment over several lines', 'Notes.\n\n<!--\n- [high] a.js:1 :: draft\n-->\n', 4, ISSUEFLOW],
    ['a comment in a paragraph', 'Looks fine <!-- - [high] a.js:1 :: leak --> to me.\n', 1, ISSUEFLOW],
    [
      'a comment spanning a paragraph’s lines',
      'Looks fine <!-- draft:\n  [high] a.js:1 :: leak\n-->\n',
      2,
      ISSUEFLOW,
    ],
    ['a decision in a list item’s comment', '- fine <!-- [fixed] 827f9ded38b8 :: closed -->\n', 1, ISSUEFLOW],
    [
      'a list item that is only a comment, under Findings',
      '## Findings\n\n- <!-- [low] a.js:1 :: x -->\n',
      3,
      ISSUEFLOW,
    ],
    ['a heading', '## Summary <!-- [high] a.js:1 :: leak -->\n', 1, ISSUEFLOW],
    ['a block quote', '> <!-- - [high] a.js:1 :: leak -->\n', 1, ISSUEFLOW],
    ['a table cell', '| a | b |\n| - | - |\n| x <!-- [high] a.js:1 :: y --> | z |\n', 3, ISSUEFLOW],
    ['Not examined', '## Not examined\n\nThe client. <!-- [high] a.js:1 :: leak -->\n', 3, ISSUEFLOW],
    ['a comment after a tag', '<div><!-- - [high] a.js:1 :: leak --></div>\n', 1, ISSUEFLOW],
    [
      '<details> holding a comment',
      '<details>\n<summary>More</summary>\n<!--\n- [high] a.js:1 :: leak\n-->\n</details>\n',
      4,
      ISSUEFLOW,
    ],
    ['a template left in a comment', '<!-- - [severity] path:line :: text -->\n', 1, ISSUEFLOW],
  ])('refuses a finding hidden in an HTML comment (%s), quoting its line', (_, text, line, v) => {
    const error = refused(text, v);
    expect(error.line).toBe(line);
    expect(error.message).toContain(`findings line ${line} is a finding inside an HTML comment`);
    expect(error.message).toContain(JSON.stringify(text.split('\n')[line - 1]?.trim()));
  });

  it('refuses one in inline HTML other than a comment, and reads a comment without one as before', () => {
    expect(refused('Text <span>\n[high] a.js:1 :: y</span>\n').line).toBe(2);
    const review = parsed('<!-- reviewer notes: none -->\n\n- [high] a.js:1 :: t <!-- ok -->\n');
    expect(review.candidates).toHaveLength(1);
    expect(parsed('<!-- ## Hidden -->\n\nAll good <!-- see [the docs](x) -->.\n').candidates).toEqual([]);
  });

  it('ignores what is fenced or indented as code: code is quoted text, never a finding', () => {
    expect(
      parsed('```\n- [high] a.js:1 :: code\n```\n\n    - [high] a.js:1 :: indented\n').candidates,
    ).toEqual([]);
  });

  it('refuses a Not examined heading with nothing under it', () => {
    const error = refused('- [low] a:1 :: t\n\n## Not examined\n\n## Later\nmore\n');
    expect(error).toMatchObject({ line: 3 });
    expect(error.message).toContain('Not examined heading with nothing under it');
  });

  it('checks finding lines again once a later heading ends the Not examined list', () => {
    expect(refused('## Not examined\n- skipped\n\n## Findings\n- [bad\n').line).toBe(5);
  });
});

describe('parseFindingsMarkdown of a declared verdict', () => {
  it.each([
    ['Verdict: pass', 'converged'],
    ['**Verdict:** Approved.', 'converged'],
    ['Verdict: open', 'open'],
    ['## Verdict: blocked', 'blocked'],
    ['> verdict : converged', 'converged'],
  ])('carries %j into the report as %s', (line, verdict) => {
    expect(parsed(`${line}\n\n- [high] a.js:1 :: t\n`).verdict).toBe(verdict);
  });

  it('refuses a verdict word it cannot check, and two verdicts that disagree', () => {
    expect(refused('Verdict: fail\n').message).toContain('say Verdict: open, blocked or converged');
    expect(refused('Verdict: constructor\n').message).toContain('declares a verdict clearance cannot check');
    expect(refused('Verdict: pass\n\nmore\n\nVerdict: open\n')).toMatchObject({ line: 5 });
  });
});

describe('parseFindingsMarkdown of input that is no Markdown review', () => {
  it.each([
    ['empty input', '', 'is empty'],
    ['white space', ' \n\t\n', 'holds only white space'],
    [
      'a JSON report',
      '{"runId":"r","round":1,"candidates":[]}\n',
      'JSON document, not a Markdown review: record a JSON report with --report',
    ],
    ['a JSON array', '[{"file":"a.js"}]', 'JSON document'],
    ['broken JSON', '{"runId": "r",', 'starts with "{" like JSON'],
  ])('refuses %s, saying what it is', (_, text, why) => {
    expect(refused(text).message).toContain(why);
  });

  it('refuses bytes that are not UTF-8, naming the offset of the first bad byte', () => {
    const bytes = Buffer.concat([
      Buffer.from('- [high] a.js:1 :: caf'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('\n'),
    ]);
    expect(refused(bytes)).toMatchObject({
      offset: 22,
      message: expect.stringContaining('byte 0xc3 at offset 22'),
    });
    // an overlong encoding of "/" and a UTF-16 surrogate are not UTF-8 either
    expect(refused(Buffer.from([0x61, 0xc0, 0xaf])).offset).toBe(1);
    expect(refused(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80])).offset).toBe(2);
  });

  it('refuses 4 KB of binary garbage and text with a NUL byte', () => {
    let seed = 7;
    const garbage = Buffer.alloc(4096, 0).map(() => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed >>> 23;
    });
    expect(refused(garbage).message).toMatch(/not UTF-8 text: byte 0x[0-9a-f]{2} at offset \d+/);
    expect(refused(Buffer.from('- [high] a.js:1 :: t\n\u0000\n')).message).toContain(
      'a NUL byte at offset 21',
    );
  });

  it('reads valid UTF-8 bytes as the same review as the text', () => {
    const text = '- [high] café.js:1 :: naïve ☃ 𝄞\n';
    expect(parsed(Buffer.from(text))).toEqual(parsed(text));
  });
});
