import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { rawControls, runnerCommands } from '../support/actions-runner.js';
import { cli } from '../support/cli.js';
import { holdLock, kill } from '../support/holder.js';
import { tempDir } from '../support/tmp.js';

/** Every command docs/design.md names; the test also checks `--help` lists no command it does not know. */
const COMMANDS = [
  'open',
  'capture',
  'publish',
  'wait',
  'stage',
  'contribute',
  'collect',
  'record',
  'status',
  'findings',
  'replay',
  'explain',
  'feedback',
  'gate',
  'next',
  'may',
  'cost',
  'reproductions',
  'reproduce',
  'dispute',
  'checks',
  'rule',
  'extend',
  'verify',
  'attest',
  'audit',
  'schema',
  'export',
  'import',
  'store',
  'demo',
  'sarif',
  'report',
  'mcp',
];

describe('the command-line contract', () => {
  it('every command has --help with an example', async () => {
    for (const command of COMMANDS) {
      const help = await cli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`Usage: clearance ${command}`));
      expect(help.stdout, command).toMatch(/Examples:\n {2}\$ /);
      // each option states its default once (import --help once printed two for --max-bytes)
      const options = help.stdout.split(/\nOptions:\n/)[1]?.split(/\n\n/)[0] ?? '';
      for (const entry of options.split(/\n(?= {2}-)/))
        expect(entry.match(/\(default/g)?.length ?? 0, `${command}: ${entry}`).toBeLessThanOrEqual(1);
    }
    const top = await cli(['--help']);
    expect(top.stdout).toMatch(/Exit statuses:\n {4}0 {2}done/);
    for (const status of [1, 2, 3, 4, 5, 70, 73, 74, 77, 130, 141])
      expect(top.stdout).toMatch(new RegExp(`^ +${status} {2}\\S`, 'm'));
    const listed = [...top.stdout.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(listed.sort()).toEqual([...COMMANDS].sort());
  });

  it("commander's own usage errors quote the argv encoded: no workflow command, no raw control", async () => {
    const dir = await tempDir();
    expect((await cli(['--dir', dir, 'open', 'open-1', '--input-sha', 'a'.repeat(40)])).code).toBe(0);
    const log = path.join(dir, 'runs', 'open-1.jsonl');
    const before = await readFile(log);
    for (const argv of [
      ['stage', 'open-1', '- ##[error', '--start'],
      ['stage', 'open-1', '--\u001b[2J', '--start'],
      ['frobnicate ##[warning]x'],
      ['status', 'open-1', '--frob=##[add-mask]y'],
      ['open', 'r', '--max-bytes', '##[error]1'],
    ]) {
      const refused = await cli(['--dir', dir, ...argv]);
      expect(refused.code, argv.join(' ')).toBe(2);
      expect(refused.stderr, argv.join(' ')).toMatch(/^error: /);
      expect(runnerCommands(`${refused.stdout}${refused.stderr}`), argv.join(' ')).toEqual([]);
      expect(rawControls(`${refused.stdout}${refused.stderr}`), argv.join(' ')).toEqual([]);
    }
    expect(await readFile(log)).toEqual(before);
  });

  it('usage errors exit 2; under --json they are one JSON object', async () => {
    const dir = await tempDir();
    expect((await cli(['frobnicate'])).code).toBe(2);
    expect((await cli(['--dir', dir, 'open'])).code).toBe(2);
    const json = await cli(['--dir', dir, 'open', '--json']);
    expect(json.code).toBe(2);
    expect(json.json).toEqual({
      ok: false,
      error: { code: 'usage', message: "missing required argument 'run'" },
    });
    expect((await cli(['--dir', dir, 'open', 'r', '--policy', 'strictest'])).stderr).toMatch(
      /unknown policy "strictest": use one of default, issueflow/,
    );
    expect((await cli(['--dir', dir, 'capture', 'r', '--rename', 'nothing'])).code).toBe(2);
    expect((await cli(['--dir', dir, 'record', 'r', '--report', path.join(dir, 'missing.json')])).code).toBe(
      2,
    );
    expect((await cli(['--dir', dir, 'schema', 'policy', '--json'])).json).toMatchObject({
      ok: false,
      error: { code: 'usage' },
    });
  });

  it('a missing run, an existing run and a bad report are refusals: exit 1', async () => {
    const dir = await tempDir();
    const missing = await cli(['--dir', dir, 'status', 'nope', '--json']);
    expect([missing.code, (missing.json.error as { code: string }).code]).toEqual([1, 'run-missing']);
    expect((await cli(['--dir', dir, 'open', 'r'])).code).toBe(0);
    const exists = await cli(['--dir', dir, 'open', 'r', '--json']);
    expect([exists.code, (exists.json.error as { code: string }).code]).toEqual([1, 'run-exists']);
    const notJson = path.join(dir, 'r.json');
    await writeFile(notJson, '{"runId":');
    const bad = await cli(['--dir', dir, 'record', 'r', '--report', notJson, '--json']);
    expect([bad.code, (bad.json.error as { code: string }).code]).toEqual([1, 'invalid-report']);
    const policyFile = path.join(dir, 'policy.json');
    await writeFile(policyFile, JSON.stringify({ name: 'mine', maxRounds: 'four', severities: {} }));
    expect((await cli(['--dir', dir, 'open', 'r2', '--policy-file', policyFile])).stderr).toMatch(
      /policy file .*: invalid policy: maxRounds/,
    );
  });

  it('a lock that is not acquired in time exits 5', async () => {
    const dir = await tempDir();
    await cli(['--dir', dir, 'open', 'r']);
    const holder = await holdLock(path.join(dir, 'runs', 'r.jsonl'));
    try {
      const result = await cli(['--dir', dir, 'capture', 'r', '--input-sha', 'x', '--json'], {
        env: { CLEARANCE_LOCK_TIMEOUT_MS: '100' },
      });
      expect(result.code).toBe(5);
      expect((result.json.error as { code: string }).code).toBe('lock-timeout');
    } finally {
      await kill(holder);
    }
  });

  it('a directory where the log should be is store-unusable (73), not an internal error', async () => {
    const dir = await tempDir();
    await mkdir(path.join(dir, 'runs', 'r.jsonl'), { recursive: true });
    const result = await cli(['--dir', dir, 'status', 'r', '--json']);
    expect(result.code).toBe(73);
    expect(result.json).toMatchObject({
      ok: false,
      error: {
        code: 'store-unusable',
        message: expect.stringContaining('a directory is where a file should be'),
      },
    });
  });

  it('an unexpected failure (a bug) is an internal error: exit 70, still one JSON object', async () => {
    // a bug injected in-process: reading the environment throws an ordinary TypeError
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (_target, key) => {
        if (key === 'CLEARANCE_LOCK_TIMEOUT_MS') throw new TypeError('a bug in clearance');
        return undefined;
      },
    });
    for (const json of [true, false]) {
      let stdout = '';
      let stderr = '';
      const code = await run(['status', 'r', ...(json ? ['--json'] : [])], {
        stdout: { write: (t: string) => (stdout += t) },
        stderr: { write: (t: string) => (stderr += t) },
        stdin: (async function* () {})(),
        env,
      });
      expect(code).toBe(70);
      if (json) {
        expect(JSON.parse(stdout)).toMatchObject({
          ok: false,
          error: {
            code: 'internal',
            message: expect.stringMatching(/^internal error \(please report it\): .*a bug in clearance/),
          },
        });
      } else {
        expect([stdout, stderr]).toEqual(['', expect.stringMatching(/^error: internal error/)]);
      }
    }
  });

  it('unsafe run ids are refused before any path is built: exit 2, nothing created anywhere', async () => {
    const parent = await tempDir();
    const dir = path.join(parent, 'store');
    for (const id of ['..', '../escape', 'a/b', '.hidden', 'x'.repeat(129), 'a..b', 'a\tb', ' ']) {
      const result = await cli(['--dir', dir, 'open', id, '--json']);
      expect(result.code, id).toBe(2);
      expect((result.json.error as { code: string }).code, id).toBe('invalid-run-id');
    }
    expect(await readdir(parent)).toEqual([]);
  });

  it('schema prints the report and the event JSON Schemas', async () => {
    const report = await cli(['schema', 'report']);
    expect(JSON.parse(report.stdout)).toMatchObject({ type: 'object', additionalProperties: false });
    const event = await cli(['schema', 'event', '--json']);
    expect(event.json).toMatchObject({ ok: true, schema: 'event', jsonSchema: { oneOf: expect.any(Array) } });
  });
});
