import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { report, sha } from '../support/builders.js';
import { CLI, cli } from '../support/cli.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

const errorOf = (r: { json: Record<string, unknown> }) =>
  r.json.error as { code: string; message: string; details?: Record<string, unknown> };

const mounted: string[] = [];
afterEach(() => {
  for (const at of mounted.splice(0)) execFileSync('umount', ['-l', at]);
});

/**
 * A small tmpfs at a fresh directory, or why there cannot be one here (not root, no mount(8), a
 * container without CAP_SYS_ADMIN): the cases that need one are skipped saying so, never silently.
 */
const smallTmpfs = async (size = '64k'): Promise<string | { cannot: string }> => {
  const at = await tempDir('clearance-tmpfs-');
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', at], { stdio: 'pipe' });
  } catch (e) {
    return {
      cannot: `cannot mount a tmpfs here: ${(e as { stderr?: Buffer }).stderr?.toString().trim() || (e as Error).message}`,
    };
  }
  mounted.push(at);
  return at;
};

/** Fill a filesystem until the next write fails with ENOSPC. */
const fill = async (dir: string): Promise<void> => {
  await promisify(execFile)('sh', [
    '-c',
    `dd if=/dev/zero of=${JSON.stringify(path.join(dir, 'ballast'))} bs=4k 2>/dev/null; true`,
  ]);
};

const openRun = async (dir: string) => {
  const opened = await cli(['--dir', dir, 'open', 'r', '--input-sha', sha('A'), '--json']);
  expect(opened.code).toBe(0);
};

describe('the store on an ordinary machine: operational codes, never exit 70', () => {
  it.each([
    [
      'a regular file',
      async (dir: string) => {
        const file = path.join(dir, 'store');
        await writeFile(file, 'not a directory');
        return file;
      },
    ],
    ['/dev/null', async () => '/dev/null'],
    [
      'a symlink loop',
      async (dir: string) => {
        await symlink(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
        await symlink(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
        return path.join(dir, 'loop-a');
      },
    ],
  ])(
    '--dir naming %s is store-unusable (73), for open and status, through --dir and CLEARANCE_DIR',
    async (_what, make) => {
      const at = await make(await tempDir());
      for (const args of [
        ['--dir', at, 'open', 'r', '--json'],
        ['--dir', at, 'status', 'r', '--json'],
      ]) {
        const result = await cli(args);
        expect([result.code, errorOf(result).code]).toEqual([73, 'store-unusable']);
        expect(errorOf(result).message).toContain('give --dir (or CLEARANCE_DIR)');
      }
      const viaEnv = await cli(['open', 'r', '--json'], { env: { CLEARANCE_DIR: at } });
      expect([viaEnv.code, errorOf(viaEnv).code]).toEqual([73, 'store-unusable']);
      const human = await cli(['--dir', at, 'open', 'r']);
      expect(human.stderr).toMatch(/^error: the store .* cannot be used .*\[store-unusable\]\n$/);
      expect(human.stderr).not.toContain('    at ');
    },
  );

  it('a fresh lock path that is a file is store-unusable (73) and the log untouched; a stale one never ends as 70', async () => {
    const dir = await tempDir();
    await openRun(dir);
    const lock = path.join(dir, 'runs', 'r.jsonl.lock');
    await writeFile(lock, 'in the way');
    const before = await snapshot(dir);
    const fresh = await cli([
      '--dir',
      dir,
      '--lock-timeout',
      '200',
      'stage',
      'r',
      'planning',
      '--start',
      '--json',
    ]);
    expect([fresh.code, errorOf(fresh).code]).toEqual([73, 'store-unusable']);
    expect(errorOf(fresh).message).toContain(`the lock ${lock} is a file`);
    expect((await snapshot(dir)).get('runs/r.jsonl')).toBe(before.get('runs/r.jsonl'));
    // an old one is stale: the store may take it over (and append) or refuse it; never exit 70
    execFileSync('touch', ['-d', '2020-01-01', lock]);
    const stale = await cli(['--dir', dir, 'stage', 'r', 'planning', '--start', '--json']);
    expect([0, 73], JSON.stringify(stale.json)).toContain(stale.code);
  });

  it('a store the user may not write is permission-denied (77), naming the path', async (ctx) => {
    if (process.getuid?.() !== 0) {
      console.warn('skipped EACCES: needs root to run the CLI as another user');
      return ctx.skip();
    }
    const parent = await tempDir();
    await openRun(path.join(parent, 'store'));
    await chmod(parent, 0o755);
    // root owns the store: nobody (uid 65534) may read it, not create a run in it
    await chmod(path.join(parent, 'store', 'runs'), 0o755);
    const before = await snapshot(parent);
    const result = await cli(['--dir', path.join(parent, 'store'), 'open', 'r2', '--json'], {
      uid: 65534,
      gid: 65534,
    });
    expect([result.code, errorOf(result).code], result.stdout + result.stderr).toEqual([
      77,
      'permission-denied',
    ]);
    expect(errorOf(result).message).toContain(path.join(parent, 'store'));
    expect(await snapshot(parent)).toEqual(before);
  });

  it('a full disk is no-space (74) on open, record and stage, naming the path', async (ctx) => {
    const fs = await smallTmpfs();
    if (typeof fs !== 'string') {
      console.warn(`skipped ENOSPC: ${fs.cannot}`);
      return ctx.skip();
    }
    const store = path.join(fs, 'store');
    await openRun(store);
    const draft = path.join(await tempDir(), 'r1.json');
    await writeFile(draft, JSON.stringify({ ...report(1, 'A'), runId: 'r', candidates: [] }));
    const output = path.join(path.dirname(draft), 'plan.json');
    await writeFile(output, 'x'.repeat(100_000));
    await fill(fs);
    for (const args of [
      ['open', 'r2', '--input-sha', sha('A')],
      ['stage', 'r', 'planning', '--finish', '--output', output],
    ]) {
      const result = await cli(['--dir', store, ...args, '--json']);
      expect([result.code, errorOf(result).code], JSON.stringify(result.json)).toEqual([74, 'no-space']);
      expect(errorOf(result).message).toContain('no space left on the device holding');
      expect(errorOf(result).message).toContain(store);
    }
    // an append that fits in the last free bytes may succeed; one that cannot fails the same way
    await writeFile(
      draft,
      JSON.stringify({ ...report(1, 'A'), runId: 'r', candidates: [], notExamined: 'x'.repeat(60_000) }),
    );
    const recorded = await cli(['--dir', store, 'record', 'r', '--report', draft, '--json']);
    expect(recorded.code).not.toBe(70);
    if (recorded.code !== 0 && recorded.code !== 1)
      expect([recorded.code, errorOf(recorded).code]).toEqual([74, 'no-space']);
  });

  it('a read-only file system is read-only (73) on open, record and stage', async (ctx) => {
    const fs = await smallTmpfs('1m');
    if (typeof fs !== 'string') {
      console.warn(`skipped EROFS: ${fs.cannot}`);
      return ctx.skip();
    }
    const store = path.join(fs, 'store');
    await openRun(store);
    const outside = await tempDir();
    const draft = path.join(outside, 'r1.json');
    await writeFile(draft, JSON.stringify({ ...report(1, 'A'), runId: 'r' }));
    const output = path.join(outside, 'plan.json');
    await writeFile(output, 'the plan');
    execFileSync('mount', ['-o', 'remount,ro', fs]);
    const before = await snapshot(store);
    for (const args of [
      ['open', 'r2', '--input-sha', sha('A')],
      ['record', 'r', '--report', draft],
      ['stage', 'r', 'planning', '--start'],
      ['stage', 'r', 'planning', '--finish', '--output', output],
    ]) {
      const result = await cli(['--dir', store, ...args, '--json']);
      expect([result.code, errorOf(result).code], JSON.stringify(result.json)).toEqual([73, 'read-only']);
      expect(errorOf(result).message).toContain('read-only file system');
    }
    expect(await snapshot(store)).toEqual(before);
  });
});

describe('the terminal and the pipe', () => {
  it('a closed stdout ends the command quietly with 141, as git under | head', async () => {
    const dir = await tempDir();
    await openRun(dir);
    for (const args of [
      ['--dir', dir, 'replay', 'r', '--json'],
      ['schema', 'report'],
      ['--dir', dir, 'status', 'r'],
    ]) {
      const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.destroy(); // the reader is gone before the command writes a byte
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect({ code, stderr }).toEqual({ code: 141, stderr: '' });
    }
  });

  it.runIf(process.platform === 'linux')(
    'Ctrl-C during a wait on a terminal clears the spinner line and exits 130',
    async () => {
      const dir = await tempDir();
      await openRun(dir);
      const inbox = path.join(dir, 'inbox');
      await mkdir(inbox);
      const command = [
        process.execPath,
        CLI,
        '--dir',
        dir,
        'record',
        'r',
        '--wait',
        path.join(inbox, 'r1.json'),
        '--timeout-ms',
        '60000',
      ];
      const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
      // script(1) gives the CLI a terminal; the shell sends SIGINT once the wait watches its
      // directory (an inotify descriptor: the handler is in place by then) and the spinner has drawn
      const watching =
        'for i in $(seq 1 400); do ls -l /proc/$pid/fd 2>/dev/null | grep -q inotify && break; sleep 0.05; done';
      const shell = `${quoted} & pid=$!; ${watching}; sleep 0.3; kill -INT $pid; wait $pid; echo "exit=$?"`;
      const { stdout } = await promisify(execFile)('script', ['-qec', shell, '/dev/null'], {
        env: { ...process.env, NO_COLOR: '1' },
      }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      expect(stdout).toMatch(/waiting for .*r1\.json \d+\.\d s elapsed/);
      expect(stdout).toContain('exit=130');
      // the last spinner frame is followed by the clearing sequence before anything else is written
      const lastFrame = stdout.lastIndexOf(' s left');
      const clear = '\r\u001b[K';
      expect(stdout.slice(lastFrame).startsWith(` s left\u001b[K${clear}`)).toBe(true);
      expect(stdout).toMatch(/error: the wait was aborted \(interrupted by Ctrl-C\) .*\[aborted\]/);
      expect(await readdir(inbox)).toEqual([]);
      await sleep(0);
    },
  );
});

describe('publish into a directory that does not exist yet', () => {
  it('creates the missing parent directories (the loop of docs/loop.md: review/round-2.json)', async () => {
    const dir = await tempDir();
    const draft = path.join(dir, 'draft.json');
    await writeFile(draft, JSON.stringify(report(2, 'B')));
    const target = path.join(dir, 'review', 'pr-236', 'round-2.json');
    const result = await cli(['publish', target, '--report', draft, '--json']);
    expect([result.code, result.json.path]).toEqual([0, target]);
    expect(await readdir(path.dirname(target))).toEqual(['round-2.json']);
  });
});
