import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** A store with run-1 opened under a policy expecting ada and bob, round 1 captured as input A. */
const panelRun = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, JSON.stringify(value));
    return at;
  };
  const policy = await write('policy.json', {
    name: 'panel',
    maxRounds: 2,
    severities: { major: { blocks: true } },
    experts: ['ada', 'bob'],
  });
  expect((await run('open', 'run-1', '--policy-file', policy, '--input-sha', sha('A'))).code).toBe(0);
  const log = path.join(dir, 'runs', 'run-1.jsonl');
  const recorded = async (type: string) =>
    (await readFile(log, 'utf8'))
      .split('\n')
      .filter((l) => l.includes(`"${type}"`))
      .map((l) => JSON.parse(l).data as { expert?: string; reason?: string });
  return { dir, run, write, log, recorded };
};

describe('--reviewer, and --expert: its older spelling, hidden', () => {
  it('contribute takes either spelling, and records the same reviewer under the log’s field', async () => {
    const { run, write, recorded } = await panelRun();
    const a = await run(
      'contribute',
      'run-1',
      '--reviewer',
      'ada',
      '--report',
      await write('a.json', report(1, 'A', { candidates: [candidate()] })),
      '--json',
    );
    expect(a.json).toMatchObject({ round: 1, expert: 'ada', contributions: ['ada'] });
    const b = await run(
      'contribute',
      'run-1',
      '--expert',
      'bob',
      '--report',
      await write('b.json', report(1, 'A', { candidates: [candidate()] })),
      '--json',
    );
    expect(b.json).toMatchObject({ round: 1, expert: 'bob', contributions: ['ada', 'bob'] });
    expect((await recorded('contribution.recorded')).map((c) => c.expert)).toEqual(['ada', 'bob']);
  });

  it('publish and collect take the older spelling too', async () => {
    const { dir, run, write, recorded } = await panelRun();
    await mkdir(path.join(dir, 'inbox'));
    const inbox = (name: string) => path.join(dir, 'inbox', `${name}.json`);
    const published = await run(
      'publish',
      inbox('ada'),
      '--expert',
      'ada',
      '--report',
      await write('a.json', report(1, 'A', { candidates: [candidate()] })),
    );
    expect(published.code).toBe(0);
    const collected = await run(
      'collect',
      'run-1',
      '--expert',
      `ada=${inbox('ada')}`,
      '--expert',
      `bob=${inbox('bob')}`,
      '--timeout-ms',
      '200',
      '--json',
    );
    expect(collected.code).toBe(0);
    expect((await recorded('contribution.recorded')).map((c) => c.expert)).toEqual(['ada']);
    expect((await recorded('contribution.absent')).map((c) => [c.expert, c.reason])).toEqual([
      ['bob', 'missing'],
    ]);
  });

  it('refuses both spellings at once as a usage error naming both, the log untouched', async () => {
    const { dir, run, write, log } = await panelRun();
    const rp = await write('a.json', report(1, 'A', { candidates: [candidate()] }));
    const before = await readFile(log);
    const attempts = [
      ['contribute', 'run-1', '--reviewer', 'ada', '--expert', 'ada', '--report', rp],
      ['collect', 'run-1', '--reviewer', `ada=${rp}`, '--expert', `bob=${rp}`, '--timeout-ms', '100'],
      ['publish', path.join(dir, 'out.json'), '--reviewer', 'ada', '--expert', 'ada', '--report', rp],
    ];
    for (const argv of attempts) {
      const said = await run(...argv);
      expect(said.code, argv[0]).toBe(2);
      expect(said.stderr).toContain('give --reviewer or --expert');
      expect(said.stderr).toContain('not both');
    }
    expect(await readFile(log)).toEqual(before);
    await expect(readFile(path.join(dir, 'out.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('collect with neither spelling is a usage error naming --reviewer', async () => {
    const { run, log } = await panelRun();
    const before = await readFile(log);
    const said = await run('collect', 'run-1', '--timeout-ms', '100');
    expect(said.code).toBe(2);
    expect(said.stderr).toContain('collect needs --reviewer NAME=PATH');
    expect(await readFile(log)).toEqual(before);
  });

  it('--help shows only --reviewer', async () => {
    for (const command of ['contribute', 'publish', 'collect']) {
      const help = await cli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/--reviewer <name/);
      expect(help.stdout, command).not.toContain('--expert');
    }
  });
});
