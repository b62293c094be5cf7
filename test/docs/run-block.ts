import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../support/cli.js';

export type BlockRun = Readonly<{ code: number | null; stdout: string; stderr: string }>;

/**
 * Run one shell example as a reader would: bash, in a fresh empty directory, with `clearance` the
 * built CLI on the PATH (as test/render/workflow-runner.ts puts it there) and nothing of the test
 * run's own store in the environment. `set -e -o pipefail`: a line that fails fails the example,
 * not only the last one. A fresh HOME stands for a newcomer's machine, with a git identity, as a
 * person who commits has one. Asynchronous, so that examples run side by side (it.concurrent).
 */
export const runBlock = async (code: string, timeoutMs = 50_000): Promise<BlockRun> => {
  const base = mkdtempSync(path.join(os.tmpdir(), 'clearance-doc-example-'));
  try {
    const bin = path.join(base, 'bin');
    const home = path.join(base, 'home');
    const cwd = path.join(base, 'work');
    for (const dir of [bin, home, cwd]) mkdirSync(dir);
    writeFileSync(path.join(bin, 'clearance'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
    chmodSync(path.join(bin, 'clearance'), 0o755);
    const {
      CLEARANCE_DIR: _dir,
      CLEARANCE_STORE: _store,
      CLEARANCE_ACTOR: _actor,
      GIT_DIR: _gitDir,
      GIT_WORK_TREE: _gitWorkTree,
      ...inherited
    } = process.env;
    const child = spawn('bash', ['-c', `set -e -o pipefail\n${code}`], {
      cwd,
      env: {
        ...inherited,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        NO_COLOR: '1',
        GIT_AUTHOR_NAME: 'A Newcomer',
        GIT_AUTHOR_EMAIL: 'newcomer@example.com',
        GIT_COMMITTER_NAME: 'A Newcomer',
        GIT_COMMITTER_EMAIL: 'newcomer@example.com',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const exit = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (status) => resolve(status));
    });
    return { code: exit, stdout, stderr };
  } finally {
    await rm(base, { recursive: true, force: true });
  }
};
