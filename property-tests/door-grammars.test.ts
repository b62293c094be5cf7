import path from 'node:path';
import * as fc from 'fast-check';
import { describe, expect } from 'vitest';
import { ACTOR_NAME_MAX, ACTOR_NAME_PATTERN, actorNameProblem } from '../src/events/actor-name.js';
import { ONE_LINE_PATTERN, oneLineProblem } from '../src/events/one-line.js';
import { REPO_PATH_PATTERN, repoPathProblem } from '../src/events/repo-path.js';
import { hasControl } from '../src/text/untrusted.js';
import { property } from './property.js';
import { numRuns } from './runs.js';

/**
 * Strings built from the characters a path grammar turns on (separators, dots, a colon after a
 * letter, a backslash) among ordinary ones, with now and then a control or bidi character, so that
 * short strings reach every branch and many are accepted; and strings of any code unit, lone
 * surrogates included.
 */
const character = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('a', 'b', 'C', '1', ' ', 'é', '日', '-', '+', '\uD83D\uDE00') },
  { weight: 8, arbitrary: fc.constantFrom('.', '/', ':') },
  { weight: 1, arbitrary: fc.constantFrom('\\', '\u0000', '\n', '\t', '\u001b', '\u007f', '\u0085') },
  { weight: 1, arbitrary: fc.constantFrom('\u202e', '\u2066', '\u2028') },
);
const pathLike = fc.oneof(
  { weight: 4, arbitrary: fc.array(character, { maxLength: 14 }).map((cs) => cs.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
);

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * What a relative POSIX path that stays inside the repository is, said another way: Node's own
 * `path.posix` finds it relative and already normal (no `.` or `..` within, no doubled /), and it
 * does not climb out, end in a slash, or hold a character a sink acts on (the set `untrusted.ts`
 * escapes), a backslash, or a scheme (RFC 3986) and its colon.
 */
const reference = (p: string): boolean =>
  p !== '' &&
  p !== '.' &&
  !path.posix.isAbsolute(p) &&
  path.posix.normalize(p) === p &&
  p !== '..' &&
  !p.startsWith('../') &&
  !p.endsWith('/') &&
  !hasControl(p) &&
  !p.includes('\\') &&
  !SCHEME.test(p);

/** A published JSON Schema pattern, read as Ajv reads it (ECMA-262 with the `u` flag). */
const published = (pattern: string) => new RegExp(pattern, 'u');
const isWellFormed = (s: string): boolean => !/[\uD800-\uDFFF]/u.test(s);

describe('the path grammar at the door', () => {
  property([pathLike], { numRuns: numRuns * 4 })(
    'accepts exactly what the reference accepts, and its published pattern agrees',
    (p) => {
      const accepted = repoPathProblem(p) === undefined;
      expect(accepted, JSON.stringify(p)).toBe(reference(p));
      // a lone surrogate is not the pattern's to judge: the report refuses it as invalid-text first
      if (isWellFormed(p)) expect(published(REPO_PATH_PATTERN).test(p), JSON.stringify(p)).toBe(accepted);
    },
  );

  property([pathLike], { numRuns: numRuns * 4 })(
    'every accepted path normalises to itself and resolves inside the repository root',
    (p) => {
      if (repoPathProblem(p) !== undefined) return;
      expect(path.posix.normalize(p)).toBe(p);
      const inside = path.posix.resolve('/repo', p);
      expect(inside.startsWith('/repo/')).toBe(true);
      expect(path.posix.relative('/repo', inside)).toBe(p);
    },
  );

  const name = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((n) => !n.includes('/'));
  property([fc.array(name, { minLength: 1, maxLength: 5 })], { numRuns })(
    'names of any text joined by / are accepted unless one is . or .., or holds a backslash or a control',
    (names) => {
      const p = names.join('/');
      const expected =
        names.every((n) => n !== '.' && n !== '..' && !n.includes('\\') && !hasControl(n)) && !SCHEME.test(p);
      expect(repoPathProblem(p) === undefined, JSON.stringify(p)).toBe(expected);
    },
  );
});

describe('one-line fields and names', () => {
  property([pathLike], { numRuns })('a one-line field refuses exactly what a sink would act on', (s) => {
    expect(oneLineProblem(s) === undefined).toBe(!hasControl(s));
    if (isWellFormed(s)) expect(published(ONE_LINE_PATTERN).test(s)).toBe(!hasControl(s));
  });

  property([fc.oneof(pathLike, fc.string({ unit: 'grapheme', maxLength: 300 }))], { numRuns })(
    'a name is one printable line, not blank, at most 256 characters; its published pattern and maxLength agree',
    (s) => {
      const accepted = actorNameProblem(s) === undefined;
      expect(accepted).toBe(
        s.trim() !== '' && s.length <= ACTOR_NAME_MAX && !hasControl(s) && isWellFormed(s),
      );
      if (isWellFormed(s))
        expect(published(ACTOR_NAME_PATTERN).test(s) && s.length <= ACTOR_NAME_MAX).toBe(accepted);
    },
  );
});
