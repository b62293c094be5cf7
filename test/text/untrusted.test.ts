import { describe, expect, it } from 'vitest';
import {
  hasControl,
  htmlAttribute,
  htmlText,
  jsonText,
  markdownText,
  plainText,
  showControls,
} from '../../src/text/untrusted.js';

const HOSTILE =
  'x\n::error file=a.js,line=1::forged\u001b]0;PWNED\u0007\u001b[2J ##[error]boom \u202egnp.exe';

describe('untrusted text', () => {
  it('plain text never breaks a line, never holds a raw control, never a runner command', () => {
    const out = plainText(HOSTILE);
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    expect(out).not.toContain('##[');
    expect(out).toBe(
      'x\\n::error file=a.js,line=1::forged\\u001b]0;PWNED\\u0007\\u001b[2J ##\\u005berror]boom \\u202egnp.exe',
    );
    expect(plainText('  ::stop-commands::t')).toBe('  \\u003a:stop-commands::t');
    expect(plainText('std::vector')).toBe('std::vector');
  });

  it('Markdown text is one inline run: punctuation escaped, whitespace runs one space', () => {
    expect(markdownText('a\n\n[x](http://e) ##[error] ::e')).toBe(
      'a \\[x\\]\\(http\\:\\/\\/e\\) \\#\\#\\[error\\] \\:\\:e',
    );
    expect(markdownText('\u001b[2J')).toBe('\\\\u001b\\[2J');
  });

  it('HTML text is escaped, controls shown, bidi isolated; attributes hold no markup', () => {
    expect(htmlText('<b>&"\'\u0007')).toBe('&lt;b&gt;&amp;&quot;&#39;\\u0007');
    expect(htmlText('a\u202eb')).toBe('<bdi>a\u202eb</bdi>');
    expect(htmlText('a\nb\tc')).toBe('a\nb\tc');
    expect(htmlAttribute('a\u202e"b')).toBe('a\\u202e&quot;b');
  });

  it('JSON text parses to the same value and holds nothing a runner or terminal acts on', () => {
    const value = { s: HOSTILE, d: '\u007f\u0085\u2028' };
    const out = jsonText(value);
    expect(JSON.parse(out)).toEqual(value);
    expect(out).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/);
    expect(out).not.toContain('##[');
    expect(JSON.parse(jsonText(value, 2))).toEqual(value);
  });

  it('plain text leaves its own output as it is, so encoding a line twice changes nothing', () => {
    for (const s of [HOSTILE, '###[x', '  ::x', '\u003a:x', 'a\\u001b', '##\\u005b', '\u2028::y'])
      expect(plainText(plainText(s))).toBe(plainText(s));
  });

  it('says whether a string holds a control', () => {
    expect(hasControl('plain text')).toBe(false);
    expect(hasControl('a\tb')).toBe(true);
    expect(hasControl('\u2066')).toBe(true);
    expect(showControls('a\u0000b')).toBe('a\\u0000b');
  });
});
