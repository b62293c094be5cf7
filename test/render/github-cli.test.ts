import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
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
    const expected = [
      '::notice title=clearance%3A r is open::open after round 1 of 4: 1 blocking finding is open, so round 2 is needed',
      `::error file=src/a%2Cb.ts,line=3,title=blocking major correctness::leaks: on abort%0Afinding ${id}, open 1 round`,
      '',
    ].join('\n');
    const status = await run(['status', 'r', '--format', 'github']);
    expect([status.code, status.stdout, status.stderr]).toEqual([0, expected, '']);
    const findings = await run(['findings', 'r', '--format', 'github']);
    expect([findings.code, findings.stdout]).toEqual([0, expected]);
    // --status narrows the annotations too: no fixed finding, so only the verdict
    const fixed = await run(['findings', 'r', '--status', 'fixed', '--format', 'github']);
    expect(fixed.stdout).toBe(`${expected.split('\n')[0]}\n`);
    const written = await readFile(summary, 'utf8');
    expect(written.startsWith('# earlier step\n## clearance: r is open\n')).toBe(true);
    expect(written.match(/## clearance: r is open/g)).toHaveLength(3); // appended, never overwritten
    expect(written).toContain(
      `| \`${id}\` | major | src\\/a\\,b\\.ts\\:3 | leaks\\: on abort | 1 round(s) |`,
    );
  });

  it('writes no summary without GITHUB_STEP_SUMMARY, prints JSON under --json, and needs a run', async () => {
    const { summary, run } = await setup();
    const before = await readFile(summary, 'utf8');
    expect((await run(['status', 'r', '--format', 'github'], { GITHUB_STEP_SUMMARY: '' })).code).toBe(0);
    const json = await run(['status', 'r', '--format', 'github', '--json']);
    expect(json.json).toMatchObject({ ok: true, status: 'open', round: 1 });
    expect(await readFile(summary, 'utf8')).toBe(before);
    const none = await run(['status', '--format', 'github']);
    expect([none.code, none.stderr]).toEqual([
      2,
      'error: status --format github needs a run: clearance status <run> --format github [usage]\n',
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
