import Ajv2020Module from 'ajv/dist/2020.js';
import * as E from 'fp-ts/lib/Either.js';
import { describe, expect, it } from 'vitest';
import { parseReport, REPORT_LIMITS, reportJsonSchema } from '../../src/index.js';
import { candidate, decision, report } from '../support/builders.js';

const refusal = (input: unknown) => {
  const parsed = parseReport(input);
  if (E.isRight(parsed)) throw new Error('expected the report to be refused');
  expect(parsed.left.code).toBe('invalid-report');
  return parsed.left;
};

describe('the round report schema (the boundary)', () => {
  it('accepts a complete report and fills in empty candidates and decisions', () => {
    const parsed = parseReport({ runId: 'r', round: 1, inputSha: 'abc', completed: true });
    expect(parsed).toEqual(
      E.right({ runId: 'r', round: 1, inputSha: 'abc', completed: true, candidates: [], decisions: [] }),
    );
  });

  it('refuses a misspelt key inside a candidate with its path, never dropping it', () => {
    const { sumary: _, ...rest } = { sumary: 'x', ...candidate() };
    const bad = report(1, 'A', { candidates: [candidate(), { ...rest, sumary: 'typo' } as never] });
    const r = refusal(bad);
    expect(r.path).toEqual(['candidates', 1, 'sumary']);
    expect(r.message).toMatch(/unknown key "sumary" in candidates\[1\]/);
  });

  it('refuses a misspelt key inside a decision with its path', () => {
    const bad = report(2, 'B', { decisions: [{ ...decision(candidate(), 'fixed'), evidnce: 'x' } as never] });
    expect(refusal(bad).path).toEqual(['decisions', 0, 'evidnce']);
  });

  it('refuses a misspelt top-level key (a dropped "decisions" would lose rulings)', () => {
    expect(refusal({ ...report(1, 'A'), decisons: [] }).path).toEqual(['decisons']);
  });

  it('names a wrong type by path', () => {
    const r = refusal(report(1, 'A', { candidates: [{ ...candidate(), line: '7' } as never] }));
    expect(r.path).toEqual(['candidates', 0, 'line']);
    expect(r.message).toMatch(/candidates\[0\]\.line/);
  });

  it('refuses things that are not reports at all', () => {
    for (const input of [null, [], 'report', 42, {}]) refusal(input);
  });

  it('publishes a JSON Schema producers in any language can use', () => {
    const schema = reportJsonSchema();
    expect(schema.type).toBe('object');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(expect.arrayContaining(['runId', 'round', 'inputSha', 'completed']));
    const props = schema.properties as Record<
      string,
      { items?: { required?: string[]; additionalProperties?: boolean; properties?: object } }
    >;
    expect(props.candidates?.items?.required).toEqual(
      expect.arrayContaining(['file', 'category', 'summary', 'severity', 'evidence']),
    );
    // confirmed: true (the seed form) or a verifier's assessment: one of them, which the rules check
    expect(props.candidates?.items?.required).not.toContain('confirmed');
    expect(Object.keys(props.candidates?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['confirmed', 'verdict', 'introducedByDiff', 'sameAs']),
    );
    expect(props.verifications?.items?.required).toEqual(
      expect.arrayContaining(['file', 'category', 'summary', 'verdict', 'evidence']),
    );
    expect(props.candidates?.items?.additionalProperties).toBe(false);
  });

  it('publishes the door checks as patterns, so a JSON Schema validator refuses what clearance refuses', () => {
    // ajv is CommonJS: under NodeNext its class is the default export's `default`
    const validate = new Ajv2020Module.default({ strict: false }).compile(reportJsonSchema());
    const withCandidate = (over: object) => report(1, 'A', { candidates: [candidate(over)] });
    const hostile = [
      withCandidate({ file: '../../etc/passwd' }),
      withCandidate({ file: '/etc/passwd' }),
      withCandidate({ file: 'file:///etc/passwd' }),
      withCandidate({ file: 'C:\\x' }),
      withCandidate({ file: 'a.js\u0000../../x' }),
      withCandidate({ summary: 'x\n::error::forged' }),
      withCandidate({ category: 'a\tb' }),
      withCandidate({ severity: '\u001b[2Jmajor' }),
      withCandidate({ section: 'Install\u202e' }),
      report(1, 'A', { reviewer: 'ada\nbob' }),
      report(1, 'A', { reviewer: '   ' }),
      report(1, 'A', { reviewer: 'a'.repeat(257) }),
    ];
    for (const input of hostile) {
      expect(validate(input), JSON.stringify(input)).toBe(false);
      expect(E.isLeft(parseReport(input))).toBe(true);
    }
    const unusual = [
      withCandidate({ file: 'with space/ünïcødé..md', evidence: 'two\nlines' }),
      withCandidate({ file: '.github/workflows/ci.yml' }),
      report(1, 'A', { reviewer: 'CI bot (nightly)' }),
    ];
    for (const input of unusual) {
      expect(validate(input), JSON.stringify(input)).toBe(true);
      expect(E.isRight(parseReport(input))).toBe(true);
    }
  });

  it('publishes every bound: each string a maxLength, each list a maxItems, numbers within 2^53', () => {
    const schema = reportJsonSchema();
    const unbounded: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (node === null || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.type === 'string' && n.enum === undefined && typeof n.maxLength !== 'number') unbounded.push(at);
      if (n.type === 'array' && typeof n.maxItems !== 'number') unbounded.push(at);
      if ((n.type === 'number' || n.type === 'integer') && typeof n.maximum !== 'number') unbounded.push(at);
      for (const [k, v] of Object.entries(n)) walk(v, `${at}/${k}`);
    };
    walk(schema, '#');
    expect(unbounded).toEqual([]);
    const props = schema.properties as Record<
      string,
      { maxItems?: number; items?: { properties?: Record<string, { maxLength?: number }> } }
    >;
    expect(props.candidates?.maxItems).toBe(REPORT_LIMITS.candidates);
    expect(props.candidates?.items?.properties?.summary?.maxLength).toBe(REPORT_LIMITS.summary);
  });
});
