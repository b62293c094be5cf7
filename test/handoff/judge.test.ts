import { describe, expect, it } from 'vitest';
import { judgeReport } from '../../src/handoff/index.js';
import { EXPECTED, roundReport } from './support/reports.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The decision order of one look, pure: binding first, then completeness, then the schema. */
describe('judgeReport', () => {
  it('accepts the matching complete report', () => {
    expect(judgeReport(bytes(JSON.stringify(roundReport())), EXPECTED)).toEqual({
      kind: 'accept',
      report: roundReport(),
    });
  });

  it('binds with strict equality: a round written as "2" or a missing inputSha is someone else’s', () => {
    const { inputSha: _, ...noInput } = roundReport();
    for (const other of [{ ...roundReport(), round: '2' }, noInput]) {
      const judged = judgeReport(bytes(JSON.stringify(other)), EXPECTED);
      expect(judged.kind).toBe('ignore');
    }
    expect(judgeReport(bytes(JSON.stringify(noInput)), EXPECTED)).toEqual({
      kind: 'ignore',
      seen: { runId: EXPECTED.runId, round: EXPECTED.round, inputSha: undefined },
    });
  });

  it('checks completeness before the schema: a matching unfinished draft is incomplete, not malformed', () => {
    const draft = { ...EXPECTED, completed: false, candidates: [{ file: 'src/a.ts' }] };
    const judged = judgeReport(bytes(JSON.stringify(draft)), EXPECTED);
    expect(judged).toMatchObject({ kind: 'fail', code: 'incomplete' });
  });

  it('reads a UTF-8 byte order mark as nothing (what some Windows producers write)', () => {
    const judged = judgeReport(bytes(`\uFEFF${JSON.stringify(roundReport())}`), EXPECTED);
    expect(judged.kind).toBe('accept');
  });
});
