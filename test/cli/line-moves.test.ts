import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { linesOf, makeRepo, tempDir } from '../support/git-repo.js';

/**
 * Findings follow their code, through the real command line and a real repository: a capture from
 * git maps each open finding's line through the diff since the last reviewed input, and `status`,
 * `--format github` and SARIF show where the finding is now, keeping where it was cited.
 */

const FILE = 'src/service.js';
const candidate = (line: number, summary: string) => ({
  file: FILE,
  line,
  category: 'correctness',
  summary,
  severity: 'major',
  confirmed: true,
  evidence: `line ${line} shows it`,
});
const MOVED = candidate(12, 'the handle is never closed');
const GONE = candidate(20, 'the error is swallowed');

type View = { id: string; line: number | null; citation: string; cited?: object; outdated?: true };

const setup = async () => {
  const repo = makeRepo();
  repo.write(FILE, linesOf('service', 30));
  repo.commitAll('the service');
  const dir = tempDir('clearance-moves-');
  const store = path.join(dir, 'store');
  const run = (...args: string[]) => cli(['--dir', store, ...args]);
  const inputSha = async () => (await run('status', 'pr-9', '--json')).json.inputSha as string;
  const record = async (round: number, body: Record<string, unknown>) => {
    const file = path.join(dir, `r${round}.json`);
    writeFileSync(
      file,
      JSON.stringify({ runId: 'pr-9', round, inputSha: await inputSha(), completed: true, ...body }),
    );
    return run('record', 'pr-9', '--report', file, '--json');
  };
  return { repo, dir, store, run, record };
};

const findingsOf = (r: { json: Record<string, unknown> }) =>
  new Map((r.json.findings as View[]).map((f) => [f.id, f]));

describe('a finding follows its code', () => {
  it('ten lines inserted above it: status --json, --format github and SARIF show its new line; its deleted neighbour is outdated', async () => {
    const { repo, store, run, record } = await setup();
    expect((await run('open', 'pr-9', '--repo', repo.dir)).code).toBe(0);
    expect((await record(1, { candidates: [MOVED, GONE] })).code).toBe(0);

    // the fix: ten lines of imports above everything, and line 20 deleted
    const lines = linesOf('service', 30).split('\n');
    lines.splice(19, 1);
    repo.write(FILE, `${linesOf('import', 10)}${lines.join('\n')}`);
    repo.commitAll('imports, and line 20 gone');
    const captured = await run('capture', 'pr-9', '--json');
    expect(captured.code).toBe(0);
    expect((captured.json.capture as { moves: unknown }).moves).toEqual([
      { id: findingId(MOVED), from: 12, to: 22 },
      { id: findingId(GONE), from: 20, to: 29, outdated: true },
    ]);

    // before round 2 is recorded, a person already reads them where the captured input has them
    const before = findingsOf(await run('status', 'pr-9', '--json'));
    expect(before.get(findingId(MOVED))).toMatchObject({
      line: 22,
      citation: `${FILE}:22`,
      cited: { file: FILE, line: 12 },
    });
    expect(before.get(findingId(GONE))).toMatchObject({ line: 29, outdated: true, cited: { line: 20 } });

    // both are in a touched file: round 2 owes each a decision, outdated or not
    const owed = await record(2, { decisions: [] });
    expect([owed.code, (owed.json.error as { code: string }).code]).toEqual([1, 'missing-decision']);
    const decided = await record(2, {
      decisions: [
        { id: findingId(MOVED), status: 'open', evidence: 'still not closed, now at line 22' },
        { id: findingId(GONE), status: 'open', evidence: 'the deletion moved the swallow to line 29' },
      ],
    });
    expect(decided.code).toBe(0);

    const after = findingsOf(await run('findings', 'pr-9', '--json'));
    expect(after.get(findingId(MOVED))).toMatchObject({ line: 22, cited: { file: FILE, line: 12 } });
    expect(after.get(findingId(MOVED))?.outdated).toBeUndefined();
    expect(after.get(findingId(GONE))).toMatchObject({ line: 29, outdated: true });

    const github = await run('status', 'pr-9', '--format', 'github');
    expect(github.stdout).toContain(`::error file=${FILE},line=22,title=blocking major correctness::`);
    expect(github.stdout).toMatch(
      /line=22,.*the handle is never closed%0Afinding [0-9a-f]{12}, open 2 rounds; cited at src\/service\.js:12/,
    );
    expect(github.stdout).toMatch(
      /line=29,.*the error is swallowed%0A.*cited at src\/service\.js:20; outdated/,
    );
    expect(github.stdout).not.toContain('line=12,');

    const sarif = await run('sarif', 'pr-9', '--round', '2');
    const results = (
      JSON.parse(sarif.stdout) as {
        runs: Array<{
          results: Array<{
            partialFingerprints: Record<string, string>;
            locations: Array<{ physicalLocation: { region: { startLine: number } } }>;
            properties: Record<string, unknown>;
          }>;
        }>;
      }
    ).runs[0]?.results;
    const at = (id: string) => results?.find((r) => r.partialFingerprints['clearanceFindingId/v1'] === id);
    expect(at(findingId(MOVED))?.locations[0]?.physicalLocation.region.startLine).toBe(22);
    expect(at(findingId(MOVED))?.properties).toMatchObject({ cited: { file: FILE, line: 12 } });
    expect(at(findingId(GONE))?.properties).toMatchObject({
      outdated: true,
      cited: { file: FILE, line: 20 },
    });
    // round 1's log is where the reviewer cited them, as it was
    const round1 = JSON.parse((await run('sarif', 'pr-9', '--round', '1')).stdout) as typeof sarif.json;
    expect(JSON.stringify(round1)).toContain('"startLine":12');

    // the trail says it in words, the log as data: the capture carries the moves, v3
    expect((await run('replay', 'pr-9')).stdout).toContain(
      `lines followed: ${findingId(MOVED).slice(0, 12)} 12 → 22, ${findingId(GONE).slice(0, 12)} 20 → 29 (outdated)`,
    );
    const log = readFileSync(path.join(store, 'runs', 'pr-9.jsonl'), 'utf8').split('\n');
    expect(log.find((l) => l.includes('"moves"'))).toMatch(/"type":"revision.captured","v":3/);
  });

  it('a renamed file: the finding follows it to its new name and line; a capture by input sha keeps the cited line', async () => {
    const { repo, run, record } = await setup();
    expect((await run('open', 'pr-9', '--repo', repo.dir)).code).toBe(0);
    expect((await record(1, { candidates: [MOVED] })).code).toBe(0);
    repo.git('mv', FILE, 'src/server.js');
    repo.write('src/server.js', `${linesOf('header', 3)}${linesOf('service', 30)}`);
    repo.commitAll('renamed, three lines above');
    const captured = await run('capture', 'pr-9', '--json');
    expect(captured.json.capture).toMatchObject({
      renames: [{ from: FILE, to: 'src/server.js' }],
      moves: [{ id: findingId(MOVED), from: 12, to: 15 }],
    });
    expect(findingsOf(await run('status', 'pr-9', '--json')).get(findingId(MOVED))).toMatchObject({
      citation: 'src/server.js:15',
      cited: { file: FILE, line: 12 },
    });

    const named = await setup();
    expect((await named.run('open', 'pr-9', '--input-sha', 'a'.repeat(40), '--touched', FILE)).code).toBe(0);
    expect((await named.record(1, { candidates: [MOVED] })).code).toBe(0);
    expect(
      (await named.run('capture', 'pr-9', '--input-sha', 'b'.repeat(40), '--touched', FILE, '--json')).json
        .capture,
    ).not.toHaveProperty('moves');
    expect(findingsOf(await named.run('status', 'pr-9', '--json')).get(findingId(MOVED))).toMatchObject({
      line: 12,
    });
  });
});

describe('a verifier places a candidate', () => {
  it('a line correction opens the finding at the corrected line, the finder’s line on the record', async () => {
    const { repo, dir, run } = await setup();
    expect((await run('open', 'pr-9', '--repo', repo.dir)).code).toBe(0);
    const inputSha = (await run('status', 'pr-9', '--json')).json.inputSha as string;
    const contribute = async (name: string, body: Record<string, unknown>) => {
      const file = path.join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ runId: 'pr-9', round: 1, inputSha, completed: true, ...body }));
      return run('contribute', 'pr-9', '--report', file, '--reviewer', name, '--json');
    };
    const { confirmed: _, ...plausible } = MOVED;
    expect((await contribute('finder', { candidates: [{ ...plausible, verdict: 'plausible' }] })).code).toBe(
      0,
    );
    const placing = (correction: object) =>
      contribute('verifier', {
        verifications: [
          {
            file: FILE,
            category: MOVED.category,
            summary: MOVED.summary,
            verdict: 'confirmed',
            evidence: 'reproduced',
            correction,
          },
        ],
      });
    const refused = await placing({ line: 0, evidence: 'nowhere' });
    expect([refused.code, (refused.json.error as { code: string }).code]).toEqual([1, 'invalid-line']);
    expect(
      (await placing({ line: 27, evidence: 'service line 27 is where the handle is dropped' })).code,
    ).toBe(0);
    expect((await run('record', 'pr-9', '--merge')).code).toBe(0);
    const finding = findingsOf(await run('findings', 'pr-9', '--json')).get(findingId(MOVED));
    expect(finding).toMatchObject({
      line: 27,
      citation: `${FILE}:27`,
      cited: { file: FILE, line: 12 },
      correction: { by: 'verifier', evidence: 'service line 27 is where the handle is dropped' },
    });
    const github = await run('status', 'pr-9', '--format', 'github');
    expect(github.stdout).toContain(`::error file=${FILE},line=27,`);
    expect((await run('explain', 'pr-9')).stdout).toMatch(
      /placed by verifier: service line 27 is where the handle is dropped\n {4}cited at src\/service\.js:12/,
    );
  });
});
