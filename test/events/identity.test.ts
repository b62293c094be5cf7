import { describe, expect, it } from 'vitest';
import { canonicalJson, findingId, reportSha, sha256Hex } from '../../src/index.js';

describe('findingId', () => {
  it('is the SHA-256 of JSON [file, category, summary] (the reference vectors)', () => {
    expect(findingId({ file: 'worker.js', category: 'correctness', summary: 'Handle not closed' })).toBe(
      '69b4a7f6810bc3766954184cbb64db97a108759f6b0ef79922005389515bedc9',
    );
    expect(findingId({ file: 'src/service.js', category: 'correctness', summary: 'Missing close' })).toBe(
      '827f9ded38b8684213e6a3419fec5c8fd7a7fe28245e2f293dff5b7bbe802032',
    );
  });

  it('ignores every other field (line, severity, evidence)', () => {
    const base = { file: 'a.ts', category: 'c', summary: 's' };
    expect(findingId({ ...base, line: 1, severity: 'major' } as typeof base)).toBe(findingId(base));
  });

  it('cannot be confused by separators inside the fields', () => {
    expect(findingId({ file: 'a","b', category: 'c', summary: 's' })).not.toBe(
      findingId({ file: 'a', category: 'b","c', summary: 's' }),
    );
  });
});

describe('reportSha', () => {
  it('hashes RFC 8785 canonical JSON, so key order and spacing do not matter', () => {
    const a = { b: 1, a: [1, 'x', { d: true, c: null }] };
    const b = JSON.parse('{ "a": [1, "x", {"c": null, "d": true}], "b": 1.0 }');
    expect(canonicalJson(a)).toBe('{"a":[1,"x",{"c":null,"d":true}],"b":1}');
    expect(reportSha(a)).toBe(reportSha(b));
    expect(reportSha(a)).toBe(sha256Hex('{"a":[1,"x",{"c":null,"d":true}],"b":1}'));
  });

  it('changes when any value changes', () => {
    expect(reportSha({ a: 1 })).not.toBe(reportSha({ a: 2 }));
  });
});
