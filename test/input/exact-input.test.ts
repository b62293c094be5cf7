import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, parseStrictJson } from '../../src/input/strict-json.js';
import { decodeUtf8 } from '../../src/input/utf8.js';

const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('UTF-8 text, exactly as sent', () => {
  it('decodes valid UTF-8 unchanged, a U+FFFD that was really sent included', () => {
    expect(decodeUtf8(bytes('é – \uFFFD 𝄞'))).toEqual({ ok: true, text: 'é – \uFFFD 𝄞' });
  });

  it.each([
    ['a stray continuation byte', bytes('ab', [0x80], 'c'), 2],
    ['0xFF', bytes('{"x":"', [0xff], '"}'), 6],
    ['a truncated sequence at the end', bytes('abc', [0xe2, 0x82]), 3],
    ['an overlong encoding of "/"', bytes('a', [0xc0, 0xaf]), 1],
    ['a UTF-16 surrogate encoded as UTF-8 (CESU)', bytes('ab', [0xed, 0xa0, 0x80]), 2],
    ['an invalid byte after a real U+FFFD', bytes('\uFFFD\uFFFDx', [0xfe]), 7],
    ['an invalid byte after a BOM', bytes([0xef, 0xbb, 0xbf], 'a', [0xff]), 4],
  ])('refuses %s, naming the byte offset', (_what, input, offset) => {
    expect(decodeUtf8(input)).toEqual({ ok: false, offset });
  });

  it('names the offset of the first invalid byte wherever it is (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.string({ maxLength: 10 }),
        (before, after) => {
          const valid = Buffer.from(before, 'utf8');
          const decoded = decodeUtf8(Buffer.concat([valid, Buffer.from([0xff]), Buffer.from(after, 'utf8')]));
          expect(decoded).toEqual({ ok: false, offset: valid.length });
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('JSON, exactly as sent', () => {
  it('refuses a duplicated key, naming its path', () => {
    expect(parseStrictJson('{"candidates":[{"line":1,"file":"a","line":2}]}')).toMatchObject({
      ok: false,
      kind: 'inexact',
      path: 'candidates[0].line',
    });
    expect(parseStrictJson('{"a":1,"a":1}')).toMatchObject({ ok: false, path: 'a' });
  });

  it('refuses a lone surrogate in a string or a key, and keeps a pair', () => {
    expect(parseStrictJson('{"summary":"a \\ud800 b"}')).toMatchObject({ ok: false, path: 'summary' });
    expect(parseStrictJson('{"s":["\\udfff"]}')).toMatchObject({ ok: false, path: 's[0]' });
    expect(parseStrictJson('{"k\\ud83d":1}')).toMatchObject({ ok: false, path: 'k\ud83d' });
    expect(parseStrictJson('["\\ud83d\\ude00"]')).toEqual({ ok: true, value: ['😀'] });
  });

  it('accepts equal keys in different objects, and __proto__ as an ordinary key', () => {
    const parsed = parseStrictJson('{"a":{"k":1},"b":{"k":2},"__proto__":{"polluted":true}}');
    expect(parsed).toEqual({
      ok: true,
      value: JSON.parse('{"a":{"k":1},"b":{"k":2},"__proto__":{"polluted":true}}'),
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['9007199254740993', 'line'],
    ['-9007199254740993', 'line'],
    ['9007199254740992', 'line'],
    ['1e23', 'line'],
    ['99999999999999999999999', 'line'],
    ['1e400', 'line'],
    ['-1e400', 'line'],
  ])('refuses %s, a number JSON.parse would silently change', (raw, path) => {
    expect(parseStrictJson(`{"line":${raw}}`)).toMatchObject({ ok: false, kind: 'inexact', path });
  });

  it.each(['9007199254740991', '-9007199254740991', '0.04', '1.5e3', '-0', '1e-400'])('accepts %s', (raw) => {
    expect(parseStrictJson(`[${raw}]`)).toEqual({ ok: true, value: [JSON.parse(raw)] });
  });

  it(`refuses nesting deeper than ${MAX_JSON_DEPTH}, however deep, without overflowing the stack`, () => {
    const nested = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(parseStrictJson(nested(MAX_JSON_DEPTH)).ok).toBe(true);
    expect(parseStrictJson(nested(MAX_JSON_DEPTH + 1))).toMatchObject({ ok: false, kind: 'inexact' });
    expect(parseStrictJson(nested(1_000_000))).toMatchObject({ ok: false, kind: 'inexact' });
    expect(parseStrictJson(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`)).toMatchObject({ ok: false });
  });

  it.each([
    '',
    ' ',
    '{',
    '{"a":1,}',
    '[1,]',
    '// c\n{}',
    '{"a":"\u0001"}',
    "{'a':1}",
    '01',
    'NaN',
    '{"a":1}x',
    '\uFEFF{}',
  ])('refuses %j as not JSON', (text) => {
    expect(parseStrictJson(text)).toMatchObject({ ok: false, kind: 'syntax' });
  });

  it('agrees with JSON.parse on every document without duplicates or unsafe integers (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        const parsed = parseStrictJson(text);
        // fc.jsonValue builds objects with distinct keys; its integers may be unsafe ones
        const unsafe = /(^|[^0-9.e+-])-?[0-9]{16,}([^0-9.e]|$)/.test(text) || /e\+?[0-9]/.test(text);
        if (parsed.ok) expect(parsed.value).toEqual(JSON.parse(text));
        else expect(unsafe).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with JSON.parse on what is not JSON at all (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), (text) => {
        let syntaxOk = true;
        try {
          JSON.parse(text);
        } catch {
          syntaxOk = false;
        }
        if (!syntaxOk) expect(parseStrictJson(text).ok).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
