import { beforeAll, describe, expect, it } from 'vitest';
import { FINGERPRINT_KEY } from '../../src/render/sarif.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';
import { sarifValidationErrorsOfEach } from './sarif-validator.js';
import { buildScenario, ids, LEAK, RUN_ID, type Scenario } from './scenario.js';

type Result = {
  ruleId: string;
  kind: string;
  level: string;
  baselineState: string;
  partialFingerprints: Record<string, string>;
  locations: Array<{
    physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number } };
  }>;
  suppressions?: Array<{
    kind: string;
    status: string;
    justification: string;
    properties: Record<string, unknown>;
  }>;
  properties: { findingId: string; status: string };
};
type Log = {
  version: string;
  runs: Array<{
    automationDetails: { id: string };
    results: Result[];
    tool: { driver: { rules: Array<{ id: string }> } };
  }>;
};

let scenario: Scenario;
const logs: Record<number, Log> = {};

beforeAll(async () => {
  scenario = await buildScenario(tempDir('clearance-sarif-'));
  for (const round of [1, 2, 3]) {
    const r = await scenario.run('sarif', RUN_ID, '--round', String(round));
    expect(r.code, r.stderr).toBe(0);
    logs[round] = JSON.parse(r.stdout) as Log;
  }
}, 300_000);
const resultOf = (round: number, id: string): Result => {
  const found = logs[round]?.runs[0]?.results.find((r) => r.partialFingerprints[FINGERPRINT_KEY] === id);
  if (found === undefined) throw new Error(`no result for ${id} in round ${round}`);
  return found;
};

describe('clearance sarif', () => {
  it('every round is valid SARIF 2.1.0 by the reference validator, one result per finding', () => {
    // the validator really validates: a wrong level (a log it cannot read), a region with no start
    const unreadable = structuredClone(logs[1]) as Log;
    (unreadable.runs[0]?.results[0] as { level: string }).level = 'fatal';
    const startless = structuredClone(logs[1]) as Log;
    (startless.runs[0]?.results[0] as unknown as { locations: unknown[] }).locations = [
      { physicalLocation: { artifactLocation: { uri: 'src/a.js' }, region: { endLine: 3 } } },
    ];
    const [one, two, three, noStart] = sarifValidationErrorsOfEach([logs[1], logs[2], logs[3], startless]);
    const [fatal] = sarifValidationErrorsOfEach([unreadable]);
    expect([one, two, three]).toEqual([[], [], []]);
    expect(fatal?.[0]).toMatch(/^the validator read 0 of the log's 1 run/);
    expect(noStart).toContainEqual(expect.stringMatching(/^SARIF1007 \(error\): .*region/));
    for (const round of [1, 2, 3]) {
      expect(logs[round]?.runs[0]?.results).toHaveLength(4);
      expect(logs[round]?.runs[0]?.automationDetails.id).toBe(`${RUN_ID}/round-${round}`);
    }
  });

  it('ruleId is the category, the level comes from blocking and severity', () => {
    expect(resultOf(1, ids.leak)).toMatchObject({ ruleId: 'correctness', level: 'error', kind: 'fail' });
    expect(resultOf(1, ids.style)).toMatchObject({ ruleId: 'style', level: 'note', kind: 'fail' });
    expect(logs[1]?.runs[0]?.tool.driver.rules.map((r) => r.id)).toEqual([
      'correctness',
      'error-handling',
      'style',
    ]);
  });

  it('baselineState compares with the previous round: new, updated, unchanged, absent', () => {
    expect(logs[1]?.runs[0]?.results.map((r) => r.baselineState)).toEqual(['new', 'new', 'new', 'new']);
    expect(resultOf(2, ids.leak).baselineState).toBe('updated'); // decided open
    expect(resultOf(2, ids.offByOne)).toMatchObject({ baselineState: 'absent', kind: 'pass', level: 'none' });
    expect(resultOf(3, ids.leak).baselineState).toBe('updated');
    expect(resultOf(3, ids.style).baselineState).toBe('unchanged');
    expect(resultOf(3, ids.statusCheck).baselineState).toBe('unchanged');
  });

  it('withdrawn and ruled findings are suppressions with the justification and who decided', () => {
    expect(resultOf(1, ids.style).suppressions).toBeUndefined();
    expect(resultOf(2, ids.style).suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: 'the formatter enforces quotes, a rule, not a review',
        properties: { decidedBy: 'tester', decision: 'withdrawn', round: 2, how: 'round decision' },
      },
    ]);
    expect(resultOf(2, ids.statusCheck).suppressions).toEqual([
      {
        kind: 'external',
        status: 'accepted',
        justification: 'the client retries on 5xx, checked by hand',
        properties: { decidedBy: 'Ada Lovelace', decision: 'withdrawn', round: 2, how: 'ruling' },
      },
    ]);
    expect(resultOf(2, ids.leak).suppressions).toBeUndefined();
  });

  it('the fingerprint is the finding id: it survives a rename and a line move', async () => {
    expect(resultOf(1, ids.statusCheck).locations[0]?.physicalLocation.artifactLocation.uri).toBe(
      'src/api.js',
    );
    expect(resultOf(2, ids.statusCheck).locations[0]?.physicalLocation.artifactLocation.uri).toBe(
      'src/client.js',
    );

    // the same finding cited at another line, in another run: one fingerprint, two lines
    const sarifFor = async (line: number) => {
      const dir = tempDir('clearance-sarif-line-');
      const run = (...args: string[]) => cli(['--dir', dir, ...args]);
      expect((await run('open', 'moved', '--input-sha', 'a'.repeat(40))).code).toBe(0);
      const report = {
        runId: 'moved',
        round: 1,
        inputSha: 'a'.repeat(40),
        completed: true,
        candidates: [{ ...LEAK, line }],
      };
      expect(
        (await cli(['--dir', dir, 'record', 'moved', '--report', '-'], { input: JSON.stringify(report) }))
          .code,
      ).toBe(0);
      return JSON.parse((await run('sarif', 'moved')).stdout) as Log;
    };
    const [at10, at42] = [await sarifFor(10), await sarifFor(42)];
    const [a, b] = [at10.runs[0]?.results[0], at42.runs[0]?.results[0]];
    expect(a?.locations[0]?.physicalLocation.region?.startLine).toBe(10);
    expect(b?.locations[0]?.physicalLocation.region?.startLine).toBe(42);
    expect(a?.partialFingerprints).toEqual({ [FINGERPRINT_KEY]: ids.leak });
    expect(b?.partialFingerprints).toEqual(a?.partialFingerprints);
  });

  it('refuses a round that has not ended, naming the flag and the range', async () => {
    const late = await scenario.run('sarif', RUN_ID, '--round', '4', '--json');
    expect(late.code).toBe(2);
    expect(late.json).toMatchObject({
      ok: false,
      error: { code: 'usage', message: `--round 4: run ${RUN_ID} has ended 3 round(s); give --round 1 to 3` },
    });
    expect((await scenario.run('sarif', RUN_ID, '--round', '0')).code).toBe(2);
    const wrapped = await scenario.run('sarif', RUN_ID, '--json');
    expect(wrapped.json).toMatchObject({ ok: true, runId: RUN_ID, round: 3, sarif: { version: '2.1.0' } });
  });
});
