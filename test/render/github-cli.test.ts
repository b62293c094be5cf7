import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { readAsRunner } from '../support/actions-runner.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const SHA = 'a'.repeat(40);
const major = {
  file: 'src/a,b.ts',
  line: 3,
  category: 'correctness',
  summary: 'leaks: on abort',
  severity: 'major',
  confirmed: true,
  evidence: 'lsof',
};

const setup = async () => {
  const dir = await tempDir();
  const summary = path.join(dir, 'summary.md');
  await writeFile(summary, '# earlier step\n');
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    cli(['--dir', dir, ...args], { env: { GITHUB_STEP_SUMMARY: summary, ...env } });
  expect((await run(['open', 'r', '--input-sha', SHA])).code).toBe(0);
  const report = { runId: 'r', round: 1, inputSha: SHA, completed: true, candidates: [major] };
  expect(
    (await cli(['--dir', dir, 'record', 'r', '--report', '-'], { input: JSON.stringify(report) })).code,
  ).toBe(0);
  return { dir, summary, run };
};

describe('--format github from the command line', () => {
  it('status and findings print the verdict and the open findings, and append the step summary', async () => {
    const { summary, run } = await setup();
    const id = findingId(major).slice(0, 12);
    const annotations = [
      '::notice title=clearance%3A r is open::open after round 1 of 4: 1 blocking finding is open, so round 2 is needed',
      `::error file=src/a%2Cb.ts,line=3,title=blocking major correctness::leaks: on abort%0Afinding ${id}, open 1 round`,
    ];
    const status = await run(['status', 'r', '--format', 'github']);
    expect([status.code, status.stderr]).toEqual([0, '']);
    const read = readAsRunner(status.stdout);
    // the annotations where the runner acts on them, everything else where it acts on nothing
    expect(read.acted).toEqual(['notice', 'error']);
    expect(read.outside).toEqual([...annotations, '']);
    expect(read.regions).toHaveLength(1);
    const text = await run(['status', 'r']);
    expect(read.regions[0]?.lines).toEqual(text.stdout.replace(/\n$/, '').split('\n'));
    expect(read.regions[0]?.resumed).toBe(true);
    const findings = await run(['findings', 'r', '--format', 'github']);
    expect(readAsRunner(findings.stdout).outside).toEqual([...annotations, '']);
    expect(readAsRunner(findings.stdout).regions[0]?.lines).toEqual([
      (await run(['findings', 'r'])).stdout.replace(/\n$/, ''),
    ]);
    // --status narrows the annotations too: no fixed finding, so only the verdict
    const fixed = await run(['findings', 'r', '--status', 'fixed', '--format', 'github']);
    expect(readAsRunner(fixed.stdout).outside).toEqual([annotations[0], '']);
    const written = await readFile(summary, 'utf8');
    expect(written.startsWith('# earlier step\n## clearance: r is open\n')).toBe(true);
    expect(written.match(/## clearance: r is open/g)).toHaveLength(3); // appended, never overwritten
    expect(written).toContain(
      `| \`${id}\` | major | src\\/a\\,b\\.ts\\:3 | leaks\\: on abort | 1 round(s) |`,
    );
  });

  it('keeps `##[` in its own annotations: the runner reads a `::error` line as that command alone', async () => {
    const dir = await tempDir();
    const odd = { ...major, file: 'src/##[add-mask]x.ts', summary: 'see ##[error]here' };
    expect((await cli(['--dir', dir, 'open', 'r', '--input-sha', SHA])).code).toBe(0);
    const report = { runId: 'r', round: 1, inputSha: SHA, completed: true, candidates: [odd] };
    expect(
      (await cli(['--dir', dir, 'record', 'r', '--report', '-'], { input: JSON.stringify(report) })).code,
    ).toBe(0);
    const status = await cli(['--dir', dir, 'status', 'r', '--format', 'github']);
    const read = readAsRunner(status.stdout);
    expect(read.acted).toEqual(['notice', 'error']);
    // the annotation names the reviewer's file and says its message, as the runner decodes them
    expect(read.outside[1]).toBe(
      `::error file=src/##[add-mask]x.ts,line=3,title=blocking major correctness::see ##[error]here%0Afinding ${findingId(odd).slice(0, 12)}, open 1 round`,
    );
    // the text for people still shows `##[` escaped, inside the region
    expect(read.regions[0]?.lines.join('\n')).toContain('src/##\\u005badd-mask]x.ts:3');
    expect(read.regions[0]?.lines.join('\n')).not.toContain('##[');
  });

  it('stops commands with a fresh random token each run, ended by the line that names it', async () => {
    const { run } = await setup();
    const tokens = [];
    for (let n = 0; n < 3; n += 1) {
      const read = readAsRunner((await run(['gate', 'r', '--format', 'github'])).stdout);
      expect(read.regions).toHaveLength(1);
      const region = read.regions[0];
      expect(region?.resumed).toBe(true);
      expect(region?.token).toMatch(/^[0-9a-f]{32}$/);
      tokens.push(region?.token);
    }
    expect(new Set(tokens).size).toBe(3);
  });

  it('--json-file writes the object --json prints, beside the workflow commands, success or refusal', async () => {
    const { dir, run } = await setup();
    const file = path.join(dir, 'result.json');
    const status = await run(['status', 'r', '--format', 'github', '--json-file', file]);
    expect(readAsRunner(status.stdout).acted).toEqual(['notice', 'error']);
    const json = await run(['status', 'r', '--json']);
    expect(await readFile(file, 'utf8')).toBe(json.stdout);
    const gate = await run(['gate', 'r', '--format', 'github', '--json-file', file]);
    expect(gate.code).toBe(1);
    expect(await readFile(file, 'utf8')).toBe((await run(['gate', 'r', '--json'])).stdout);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      ok: false,
      error: { code: 'not-converged', details: { status: 'open' } },
    });
    // any command: record's text goes where the runner acts on nothing, its JSON to the file
    const refused = await run([
      'record',
      'r',
      '--report',
      path.join(dir, 'missing.json'),
      '--format',
      'github',
      '--json-file',
      file,
    ]);
    expect(refused.code).toBe(2);
    expect(readAsRunner(refused.stderr).acted).toEqual([]);
    expect(readAsRunner(refused.stderr).regions[0]?.lines[0]).toMatch(/^error: cannot read report/);
    expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({
      ok: false,
      error: { code: 'input-unreadable' },
    });
    const unwritable = await run(['status', 'r', '--json-file', path.join(dir, 'no', 'such', 'r.json')]);
    expect([unwritable.code, unwritable.stderr]).toEqual([
      73,
      `error: cannot write the JSON result (--json-file) ${path.join(dir, 'no', 'such', 'r.json')} (ENOENT): check the path and its directory [output-unwritable]\n`,
    ]);
  });

  it('writes no summary without GITHUB_STEP_SUMMARY, prints JSON under --json, and needs a run', async () => {
    const { summary, run } = await setup();
    const before = await readFile(summary, 'utf8');
    expect((await run(['status', 'r', '--format', 'github'], { GITHUB_STEP_SUMMARY: '' })).code).toBe(0);
    const json = await run(['status', 'r', '--format', 'github', '--json']);
    expect(json.json).toMatchObject({ ok: true, status: 'open', round: 1 });
    expect(await readFile(summary, 'utf8')).toBe(before);
    const none = await run(['status', '--format', 'github']);
    expect(none.code).toBe(2);
    expect(readAsRunner(none.stderr).regions.map((r) => r.lines)).toEqual([
      ['error: status --format github needs a run: clearance status <run> --format github [usage]'],
    ]);
    expect((await run(['status', 'r', '--format', 'yaml'])).code).toBe(2);
  });

  it('a step summary that cannot be written exits 73, naming the file', async () => {
    const { dir, run } = await setup();
    const target = path.join(dir, 'missing', 'summary.md');
    const refused = await run(['gate', 'r', '--format', 'github'], { GITHUB_STEP_SUMMARY: target });
    expect(refused.code).toBe(73);
    expect(refused.stderr).toContain(
      `cannot write the step summary (GITHUB_STEP_SUMMARY) ${target} (ENOENT)`,
    );
  });
});
