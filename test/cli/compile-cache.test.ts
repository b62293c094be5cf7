import { chmodSync, chownSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enableCompileCache } from '../../src/cli/compile-cache.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// Node 20 has no module.enableCompileCache; these tests hand in a recorder in its place so that
// where the cache goes, and when it is refused, is checked on every Node the CI runs.
const recorder = () => {
  const dirs: string[] = [];
  return { dirs, enable: (dir: string) => dirs.push(dir) };
};

describe('the compile cache', () => {
  it('lives in the user cache directory, created for this user alone', async () => {
    const home = await tempDir();
    const { dirs, enable } = recorder();
    enableCompileCache({ XDG_CACHE_HOME: home }, enable);
    const dir = path.join(home, 'clearance', 'compile-cache');
    expect(dirs).toEqual([dir]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('is silently left off where it cannot be created or would sit in the working tree', async () => {
    const home = await tempDir();
    const file = path.join(home, 'not-a-directory');
    writeFileSync(file, '');
    const inTree = path.join(process.cwd(), 'cache-in-tree');
    const { dirs, enable } = recorder();
    enableCompileCache({ XDG_CACHE_HOME: file }, enable);
    enableCompileCache({ XDG_CACHE_HOME: inTree }, enable);
    expect(dirs).toEqual([]);
    expect(existsSync(inTree)).toBe(false);
  });

  it('is never read from a directory another user owns (run as root: the directory is given away)', async () => {
    const home = await tempDir();
    const dir = path.join(home, 'clearance', 'compile-cache');
    mkdirSync(dir, { recursive: true });
    const root = process.getuid?.() === 0;
    if (root) chownSync(dir, 65534, 65534);
    const { dirs, enable } = recorder();
    enableCompileCache({ XDG_CACHE_HOME: home }, enable);
    expect(dirs).toEqual(root ? [] : [dir]);
  });

  it('does nothing on a Node without one', async () => {
    const home = await tempDir();
    enableCompileCache({ XDG_CACHE_HOME: home }, undefined);
    expect(existsSync(path.join(home, 'clearance'))).toBe(false);
  });

  it('a read-only home or a cache path that is a file leaves the CLI working', async () => {
    const home = await tempDir();
    const store = await tempDir();
    const file = path.join(home, 'file');
    writeFileSync(file, '');
    chmodSync(home, 0o555);
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    chmodSync(store, 0o777);
    for (const [i, env] of [
      { HOME: home, XDG_CACHE_HOME: '' },
      { HOME: home, XDG_CACHE_HOME: file },
    ].entries()) {
      const version = await cli(['--version'], { env, ...as });
      expect(version.code).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const opened = await cli(
        ['--dir', path.join(store, 'runs'), 'open', `r${i}`, '--input-sha', 'a'.repeat(40)],
        {
          env,
          ...as,
        },
      );
      expect(opened.stderr).toBe('');
      expect(opened.code).toBe(0);
    }
  });
});
