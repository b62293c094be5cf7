import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { linesOf, makeRepo, tempDir } from '../support/git-repo.js';

/**
 * `gate --base`, through the real command line and real rebases: a branch reviewed on one main and
 * rebased onto a newer one with its patch unchanged is approved by patch; one whose rebase changed
 * a line of the patch is refused `head-moved`, as is any gate without `--base`. The gate reads only.
 */
const setupRun = async () => {
  const repo = makeRepo();
  repo.write('src/service.js', linesOf('service', 40));
  repo.write('src/other.js', linesOf('other', 10));
  const base = repo.commitAll('main');
  repo.git('checkout', '-q', '-b', 'feature');
  repo.write(
    'src/service.js',
    linesOf('service', 40).replace('service line 30\n', 'service line 30, fixed\n'),
  );
  const reviewed = repo.commitAll('the fix');
  const dir = tempDir('clearance-gate-base-');
  const store = path.join(dir, 'store');
  const run = (...args: string[]) => cli(['--dir', store, ...args]);
  expect((await run('open', 'pr-5', '--repo', repo.dir, '--base', 'main')).code).toBe(0);
  const inputSha = (await run('status', 'pr-5', '--json')).json.inputSha as string;
  const report = path.join(dir, 'r1.json');
  writeFileSync(report, JSON.stringify({ runId: 'pr-5', round: 1, inputSha, completed: true }));
  expect((await run('record', 'pr-5', '--report', report)).code).toBe(0);
  // main moves on: another file changes, then the branch is rebased onto it
  repo.git('checkout', '-q', 'main');
  repo.write('src/other.js', linesOf('other', 12));
  repo.commitAll('main moves on');
  repo.git('checkout', '-q', 'feature');
  return { repo, store, run, base, reviewed };
};

const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as { code: string; message: string };

/** Rebase onto the moved main, change the fixed line to `fixed` in the same commit, and ask the gate. */
const rebasedWith = async (setup: Awaited<ReturnType<typeof setupRun>>, fixed: string) => {
  const { repo, run } = setup;
  repo.git('rebase', '-q', 'main');
  repo.write('src/service.js', linesOf('service', 40).replace('service line 30\n', `${fixed}\n`));
  repo.git('commit', '-q', '-a', '--amend', '--no-edit');
  return run('gate', 'pr-5', '--repo', repo.dir, '--base', 'main', '--json');
};

describe('gate --base: an approval that survives a rebase that changes nothing', () => {
  it('a rebase onto a moved main with the same patch is approved by patch, naming the reviewed commit', async () => {
    const { repo, store, run, reviewed } = await setupRun();
    repo.git('rebase', '-q', 'main');
    const head = repo.git('rev-parse', 'HEAD').trim();
    expect(head).not.toBe(reviewed);
    const logBefore = readFileSync(path.join(store, 'runs', 'pr-5.jsonl'));

    const plain = await run('gate', 'pr-5', '--repo', repo.dir, '--json');
    expect([plain.code, errorOf(plain).code]).toEqual([1, 'head-moved']);

    const gated = await run('gate', 'pr-5', '--repo', repo.dir, '--base', 'main', '--json');
    expect(gated.code).toBe(0);
    expect(gated.json).toMatchObject({
      ok: true,
      approved: true,
      boundBy: 'patch',
      byPatch: {
        commit: head,
        reviewed,
        base: repo.git('rev-parse', 'main').trim(),
        patchId: expect.stringMatching(/^[0-9a-f]{40}$/),
      },
      message: expect.stringMatching(
        new RegExp(
          `^approved by patch: HEAD ${head.slice(0, 12)} is not the commit round 1 reviewed, ${reviewed.slice(0, 12)}`,
        ),
      ),
    });
    // the gate reads only: the log is the same bytes, the repository has no note
    expect(readFileSync(path.join(store, 'runs', 'pr-5.jsonl'))).toEqual(logBefore);
    expect(repo.git('notes', '--ref=clearance', 'list')).toBe('');
    const text = await run('gate', 'pr-5', '--repo', repo.dir, '--base', 'main');
    expect(text.stdout).toMatch(/^approved by patch: /);
  });

  it('a rebase that changed a line of the patch is refused head-moved, saying the change differs', async () => {
    const gated = await rebasedWith(await setupRun(), 'service line 30, fixed!');
    expect([gated.code, errorOf(gated).code]).toEqual([1, 'head-moved']);
    expect(errorOf(gated).message).toMatch(/its patch \(patch-id [0-9a-f]{12}\) is not the one reviewed/);
  });

  it('whitespace is code: a patch that differs only in a trailing space is another patch', async () => {
    const gated = await rebasedWith(await setupRun(), 'service line 30, fixed ');
    expect([gated.code, errorOf(gated).code]).toEqual([1, 'head-moved']);
  });

  it('a reviewed commit the repository does not hold, and a base that is no commit, are said plainly', async () => {
    const { repo, run, reviewed } = await setupRun();
    repo.git('rebase', '-q', 'main');
    // the reviewed commit is gone from this clone (as in a fresh CI checkout of the rebased branch)
    repo.git('reflog', 'expire', '--expire=now', '--all');
    repo.git('gc', '-q', '--prune=now');
    expect(() => repo.git('cat-file', '-e', reviewed)).toThrow();
    const gone = await run('gate', 'pr-5', '--repo', repo.dir, '--base', 'main', '--json');
    expect([gone.code, errorOf(gone).code]).toEqual([1, 'head-moved']);
    expect(errorOf(gone).message).toMatch(
      /the reviewed commit's patch against [0-9a-f]{12} cannot be compared: .*is it fetched\?/,
    );
    const nowhere = await run('gate', 'pr-5', '--repo', repo.dir, '--base', 'no-such-branch', '--json');
    expect([nowhere.code, errorOf(nowhere).code]).toEqual([1, 'git-failed']);
    expect(errorOf(nowhere).message).toMatch(/base no-such-branch is not a commit/);
  });
});
