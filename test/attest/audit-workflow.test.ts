import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expand } from '../render/workflow-steps.js';
import { CLI, cli } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/git-repo.js';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/github-actions.md');

/** The `run:` lines of docs/github-actions.md's audit workflow (its one ```yml block), in order. */
const auditSteps = (): string[] => {
  const block = /```yml\n([\s\S]*?)```/.exec(readFileSync(DOC, 'utf8'))?.[1] ?? '';
  return [...block.matchAll(/^\s+run: (.+)$/gm)]
    .map((m) => m[1] as string)
    .filter((r) => !r.startsWith('npm '));
};

const sh = (cwd: string, env: Record<string, string>, script: string) =>
  spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });

describe("docs/github-actions.md's audit workflow", () => {
  it('passes for a push of approved commits and fails for one nobody approved', async () => {
    expect(auditSteps()).toHaveLength(2);
    // the origin: a repository whose main has an approved commit, its note pushed
    const origin = makeRepo();
    origin.write('src/a.js', 'open()\n');
    const base = origin.commitAll('base');
    origin.write('src/a.js', 'open()\nclose()\n');
    const approved = origin.commitAll('approved');
    const dir = tempDir('clearance-audit-wf-');
    const store = path.join(dir, 'store');
    await cli(['--dir', store, 'open', 'pr-1', '--repo', origin.dir]);
    const inputSha = (await cli(['--dir', store, 'status', 'pr-1', '--json'])).json.inputSha as string;
    const report = path.join(dir, 'r.json');
    writeFileSync(report, JSON.stringify({ runId: 'pr-1', round: 1, inputSha, completed: true }));
    await cli(['--dir', store, 'record', 'pr-1', '--report', report]);
    const key = path.join(dir, 'gate-key');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ci', '-f', key]);
    const gated = await cli(['--dir', store, 'gate', 'pr-1', '--repo', origin.dir, '--attest', '--key', key]);
    expect(gated.code).toBe(0);
    origin.write(
      '.github/allowed_signers',
      `ci@example.com namespaces="clearance" ${readFileSync(`${key}.pub`, 'utf8')}`,
    );
    // the allowed signers arrive in a commit of their own, which nobody reviewed either
    const signersCommit = origin.commitAll('allowed signers');
    // the runner: a clone, as actions/checkout makes it, with clearance on PATH
    const runner = path.join(dir, 'runner');
    execFileSync('git', ['clone', '-q', origin.dir, runner]);
    const bin = path.join(dir, 'bin');
    execFileSync('mkdir', ['-p', bin]);
    writeFileSync(path.join(bin, 'clearance'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(bin, 'clearance'), 0o755);
    const steps = (before: string, sha: string) =>
      auditSteps().map((run) => expand(run, { 'github.event.before': before, 'github.sha': sha }));
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };
    const [fetch, auditStep] = steps(base, approved) as [string, string];
    expect(sh(runner, env, fetch).status).toBe(0);
    const good = sh(runner, env, auditStep);
    expect([good.status, good.stdout]).toEqual([0, expect.stringContaining('1 reviewed, 0 unreviewed')]);
    const [, pushedUnreviewed] = steps(approved, signersCommit) as [string, string];
    const bad = sh(runner, env, pushedUnreviewed);
    expect([bad.status, bad.stdout]).toEqual([1, expect.stringContaining('0 reviewed, 1 unreviewed')]);
  });
});
