import { describe, expect, it } from 'vitest';
import { ACTOR_NAME_MAX, actorNameProblem, actorNameRejection } from '../../src/events/actor-name.js';
import { capturePathsRejection } from '../../src/events/capture-paths.js';
import { controlIn } from '../../src/events/control-characters.js';
import { oneLineProblem } from '../../src/events/one-line.js';
import { quoted } from '../../src/events/quoted.js';
import { repoPathProblem } from '../../src/events/repo-path.js';
import { hasControl } from '../../src/text/untrusted.js';

describe('the characters no identity or one-line field holds', () => {
  it('are exactly those untrusted.ts escapes at every output, code unit for code unit', () => {
    const differ: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const c = String.fromCharCode(unit);
      if ((controlIn(c) !== undefined) !== hasControl(c)) differ.push(unit.toString(16));
    }
    expect(differ).toEqual([]);
    expect(controlIn('a\uD83D\uDE00b')).toBeUndefined();
  });

  it('are named with the character shown escaped', () => {
    expect(controlIn('a\nb')).toBe('the control character \\n');
    expect(controlIn('\u001b[2J')).toBe('the control character \\u001b');
    expect(controlIn('x\u202ey')).toBe('the bidi control \\u202e');
    expect(controlIn('x\u2029')).toBe('the line separator \\u2029');
  });
});

describe('repoPathProblem: the grammar of a path inside a repository', () => {
  it.each([
    ['', 'is empty'],
    ['../../etc/passwd', 'has a ".." name, which climbs out of its directory'],
    ['src/..', 'has a ".." name, which climbs out of its directory'],
    ['/etc/passwd', 'is absolute (it starts with /)'],
    ['file:///etc/passwd', 'begins with "file:", a drive letter or URL scheme'],
    ['git+ssh://host/x', 'begins with "git+ssh:", a drive letter or URL scheme'],
    ['C:x', 'begins with "C:", a drive letter or URL scheme'],
    ['C:\\x', 'holds a backslash (names are separated by /)'],
    ['a.js\u0000../../x', 'holds the control character \\u0000'],
    ['a\nb', 'holds the control character \\n'],
    ['\u001b]0;PWNED\u0007', 'holds the control character \\u001b'],
    ['a\u202e.js', 'holds the bidi control \\u202e'],
    ['src//a.js', 'has an empty name (a doubled or trailing /)'],
    ['src/', 'has an empty name (a doubled or trailing /)'],
    ['./a.js', 'has a "." name'],
  ])('%j %s', (path, problem) => {
    expect(repoPathProblem(path)).toBe(problem);
  });

  it.each([
    'a.js',
    'with space/a b.js',
    'ünïcødé/日本語.md',
    'a..b.js',
    '...',
    '..a',
    '.github/workflows/ci.yml',
    'src/co:lon.ts',
    '1a:b.ts',
    '-rf',
  ])('accepts %j', (path) => {
    expect(repoPathProblem(path)).toBeUndefined();
  });
});

describe('oneLineProblem', () => {
  it('refuses any control, tab and newline included, and a bidi control; accepts any other text', () => {
    expect(oneLineProblem('Missing close')).toBeUndefined();
    expect(oneLineProblem('emoji \uD83D\uDE00, ünïcødé, "quotes" and ## hashes')).toBeUndefined();
    expect(oneLineProblem('a\tb')).toBe('holds the control character \\t');
    expect(oneLineProblem('a\r\nb')).toBe('holds the control character \\r');
    expect(oneLineProblem('a\u0085b')).toBe('holds the control character \\u0085');
    expect(oneLineProblem('a\u2067b')).toBe('holds the bidi control \\u2067');
  });
});

describe('actorNameProblem and actorNameRejection: the grammar of a name, for every door', () => {
  it('refuses empty, blank, over 256, a control, a bidi control, a lone surrogate', () => {
    expect(actorNameProblem('')).toBe('is empty');
    expect(actorNameProblem(' \t ')).toBe('is only whitespace');
    expect(actorNameProblem('a'.repeat(ACTOR_NAME_MAX + 1))).toBe(
      'is 257 characters long, over the 256 a name may have',
    );
    expect(actorNameProblem('ada\nconverged by ruling of bob')).toBe('holds the control character \\n');
    expect(actorNameProblem('ada\u202e')).toBe('holds the bidi control \\u202e');
    expect(actorNameProblem('ada\uD800')).toBe('holds a lone surrogate (half of a UTF-16 pair)');
    for (const name of ['ada', 'CI bot (nightly)', 'Zoë', ' padded ', 'a'.repeat(ACTOR_NAME_MAX)])
      expect(actorNameProblem(name)).toBeUndefined();
  });

  it('is a rejection naming the door, invalid-actor, with the value escaped', () => {
    expect(actorNameRejection('ada', '--by')).toBeUndefined();
    const refused = actorNameRejection('ada\u001b]0;x\u0007', 'CLEARANCE_ACTOR');
    expect(refused).toEqual({
      code: 'invalid-actor',
      message:
        'invalid name: CLEARANCE_ACTOR: "ada\\u001b]0;x\\u0007" holds the control character \\u001b: a name is one line of printable text, 1 to 256 characters (e.g. ada, or "CI bot")',
      path: ['CLEARANCE_ACTOR'],
    });
    expect(hasControl(refused?.message ?? '')).toBe(false);
  });
});

describe('capturePathsRejection', () => {
  it('names the first touched file or rename side that is no repository path', () => {
    expect(
      capturePathsRejection({ touchedFiles: ['a.js', 'b c/d.js'], renames: [{ from: 'x', to: 'y/z' }] }),
    ).toBe(undefined);
    expect(capturePathsRejection({ touchedFiles: ['a.js', '../b'], renames: [] })).toMatchObject({
      code: 'invalid-path',
      path: ['touchedFiles', 1],
      message: expect.stringMatching(/^invalid capture: touchedFiles\[1\]: "\.\.\/b" has a "\.\." name/),
    });
    expect(capturePathsRejection({ touchedFiles: [], renames: [{ from: 'a', to: '' }] })).toMatchObject({
      path: ['renames', 0, 'to'],
      message: expect.stringContaining('"" is empty'),
    });
    expect(capturePathsRejection({ touchedFiles: ['a\nb'], renames: [] }, 'git', 'r1')).toMatchObject({
      message: expect.stringMatching(/git reports a file of that name changed since the last reviewed input/),
      next: { action: 'capture', runId: 'r1', args: { inputSha: true, touched: true } },
    });
  });
});

describe('quoted', () => {
  it('quotes a value with every control escaped, and cuts a long one saying so', () => {
    expect(quoted('a"b\\c\u001b\u0085\u202e\u2028')).toBe('"a\\"b\\\\c\\u001b\\u0085\\u202e\\u2028"');
    expect(quoted('x'.repeat(500))).toBe(`"${'x'.repeat(120)}"… (500 characters)`);
  });
});
