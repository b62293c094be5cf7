import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI } from '../support/cli.js';

export type BlockRun = Readonly<{ code: number | null; stdout: string; stderr: string }>;

/**
 * Run one shell example as a reader would: bash, in a fresh empty directory, with `clearance` the
 * built CLI on the PATH (as test/render/workflow-runner.ts puts it there) and nothing of the test
 * run's own store in the environment. `set -e -o pipefail`: a line that fails fails the example,
 * not only the last one. A fresh HOME stands for a newcomer's machine, with a git identity, as a
 * person who commits has one.
 */
export const runBlock = (code: string, timeoutMs = 30_000): BlockRun => {
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
    const ran = spawnSync('bash', ['-c', `set -e -o pipefail\n${code}`], {
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
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    return { code: ran.status, stdout: ran.stdout, stderr: ran.stderr };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
};
