import { existsSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { makeRepo, type TestRepo, tempDir } from '../support/git-repo.js';

/** No store named in the environment, so each test says where it wants one or tests the default. */
const env = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => {
  const { CLEARANCE_DIR: _, ...rest } = process.env;
  return { ...rest, ...extra };
};

const at =
  (cwd: string, extra: NodeJS.ProcessEnv = {}) =>
  (...args: string[]) =>
    cli(args, { cwd, env: env(extra) });

const committed = (): TestRepo => {
  const repo = makeRepo();
  repo.write('src/service.js', 'open()\nread()\nclose()\n');
  repo.commitAll('initial');
  return repo;
};

const EMPTY = (runId: string, round: number, inputSha: string) =>
  JSON.stringify({ runId, round, inputSha, completed: true, candidates: [] });

describe('where the store lives by default', () => {
  it('an empty --dir or --store (an unset variable in --dir "$STORE") is a usage error, and nothing is created', async () => {
    const cwd = tempDir();
    for (const flags of [['--dir', ''], ['--dir', '  '], ['--store', ''], ['--dir=']]) {
      const refused = await at(cwd)(...flags, 'open', 'pr-1', '--json');
      expect(refused.code, flags.join(' ')).toBe(2);
      expect(refused.json).toMatchObject({ ok: false, error: { code: 'usage' } });
      expect((refused.json as { error: { message: string } }).error.message).toMatch(
        /(--dir|--store) is empty: name the store/,
      );
    }
    // an empty variable counts as unset: the default store, never the working directory itself
    const opened = await at(cwd, { CLEARANCE_DIR: '', CLEARANCE_STORE: '' })('open', 'pr-1', '--json');
    expect(opened.json).toMatchObject({ ok: true, store: path.join(realpathSync(cwd), '.clearance') });
    expect(readdirSync(cwd)).toEqual(['.clearance']);
  });

  it("inside a work tree: git's common directory, printed by open, found again from a subdirectory", async () => {
    const repo = committed();
    const store = path.join(realpathSync(repo.dir), '.git', 'clearance');
    const opened = await at(repo.dir)('open', 'pr-1', '--repo', '.');
    expect(opened.code).toBe(0);
    expect(opened.stdout).toContain(`store: ${store}\n`);
    expect(existsSync(path.join(store, 'runs', 'pr-1.jsonl'))).toBe(true);
    const below = await at(path.join(repo.dir, 'src'))('status', 'pr-1', '--json');
    expect(below.json).toMatchObject({ ok: true, runId: 'pr-1' });
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('with --repo from elsewhere: the store of the repository --repo names', async () => {
    const repo = committed();
    const elsewhere = tempDir();
    const opened = await at(elsewhere)('open', 'pr-1', '--repo', repo.dir, '--json');
    expect(opened.json).toMatchObject({
      ok: true,
      store: path.join(realpathSync(repo.dir), '.git', 'clearance'),
    });
    expect(existsSync(path.join(elsewhere, '.clearance'))).toBe(false);
  });

  it('outside any work tree: ./.clearance; --dir and CLEARANCE_DIR still win inside one', async () => {
    const plain = tempDir();
    const outside = await at(plain)('open', 'x', '--input-sha', 'abc', '--json');
    expect(outside.json).toMatchObject({ ok: true, store: path.join(plain, '.clearance') });

    const repo = committed();
    const named = path.join(tempDir(), 'named');
    expect((await at(repo.dir)('--dir', named, 'open', 'y', '--repo', '.', '--json')).json).toMatchObject({
      store: named,
    });
    const fromEnv = path.join(tempDir(), 'from-env');
    expect((await at(repo.dir, { CLEARANCE_DIR: fromEnv })('open', 'z', '--json')).json).toMatchObject({
      store: fromEnv,
    });
    expect(existsSync(path.join(repo.dir, '.git', 'clearance'))).toBe(false);
  });

  it('linked worktrees share one store', async () => {
    const repo = committed();
    const linked = path.join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', linked, '-b', 'feature');
    const store = path.join(realpathSync(repo.dir), '.git', 'clearance');
    expect((await at(repo.dir)('open', 'pr-1', '--repo', '.', '--json')).json).toMatchObject({
      ok: true,
      store,
    });
    const seen = await at(linked)('status', '--json');
    expect(seen.json).toMatchObject({ ok: true, store, runs: [{ runId: 'pr-1' }] });
    expect((await at(linked)('open', 'pr-2', '--repo', '.', '--json')).json).toMatchObject({
      ok: true,
      store,
    });
    expect((await at(repo.dir)('status', 'pr-2', '--json')).json).toMatchObject({ ok: true, runId: 'pr-2' });
  });

  it('asks git once, and only when a command uses a store that nothing named', async () => {
    const repo = committed();
    const trace = path.join(tempDir(), 'trace');
    const gitRuns = async (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<string[]> => {
      writeFileSync(trace, '');
      await at(repo.dir, { GIT_TRACE: trace, ...extra })(...args);
      return readFileSync(trace, 'utf8')
        .split('\n')
        .filter((line) => line.includes('trace: built-in: git'));
    };
    const store = path.join(tempDir(), 'store');
    expect(await gitRuns(['--dir', store, 'status'])).toEqual([]);
    expect(await gitRuns(['status'], { CLEARANCE_DIR: store })).toEqual([]);
    expect(await gitRuns(['--help'])).toEqual([]);
    expect(await gitRuns(['--version'])).toEqual([]);
    expect(await gitRuns(['schema', 'report'])).toEqual([]);
    const asked = await gitRuns(['status']);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/rev-parse --is-inside-work-tree --path-format=absolute --git-common-dir$/);
  });
});

describe('a store placed inside the reviewed work tree with --dir', () => {
  it('is left out of the dirty check: capture and a second open are not refused', async () => {
    const repo = committed();
    const run = at(repo.dir);
    expect((await run('--dir', '.reviews', 'open', 'pr-1', '--repo', '.')).code).toBe(0);
    expect(repo.git('status', '--porcelain').trim()).toBe('?? .reviews/');
    expect((await run('--dir', '.reviews', 'capture', 'pr-1', '--json')).json).toMatchObject({ ok: true });
    expect((await run('--dir', '.reviews', 'open', 'pr-2', '--repo', '.', '--json')).json).toMatchObject({
      ok: true,
    });
    // a real change is still one
    repo.write('src/service.js', 'open()\n');
    const refused = await run('--dir', '.reviews', 'capture', 'pr-1', '--json');
    expect(refused.json).toMatchObject({
      ok: false,
      error: { code: 'dirty-tree', details: { paths: ['src/service.js'] } },
    });
  });

  it('is left out of the --allow-dirty tree and the gate: a review of the working files is approved after its own log grew', async () => {
    const repo = committed();
    const run = at(repo.dir);
    repo.write('src/service.js', 'open()\nread()\nclose()\nflush()\n');
    const opened = await run('--dir', '.reviews', 'open', 'wip', '--repo', '.', '--allow-dirty', '--json');
    const capture = opened.json.capture as { inputSha: string; tree: string; dirty: boolean };
    expect(capture.dirty).toBe(true);
    expect(repo.git('ls-tree', '-r', '--name-only', capture.tree).trim()).toBe('src/service.js');

    const report = path.join(tempDir(), 'round-1.json');
    writeFileSync(report, EMPTY('wip', 1, capture.inputSha));
    expect(
      (await run('--dir', '.reviews', 'record', 'wip', '--report', report, '--json')).json,
    ).toMatchObject({
      ok: true,
      status: 'converged',
    });
    const approved = await run('--dir', '.reviews', 'gate', 'wip', '--json');
    expect(approved.json).toMatchObject({ ok: true, approved: true, boundBy: 'working-tree' });

    repo.write('src/service.js', 'open()\n');
    const moved = await run('--dir', '.reviews', 'gate', 'wip', '--json');
    expect(moved.code).toBe(1);
    expect(moved.json).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(/the working files are tree/) },
    });
  });
});
