import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClearanceError } from '../../src/errors.js';
import {
  captureRevision,
  inspectWorkspace,
  observeWorkspace,
  sharedGitDirOf,
} from '../../src/revision/index.js';
import { makeRepo, type TestRepo, tempDir } from '../support/git-repo.js';

const rejectionOf = async (promise: Promise<unknown>): Promise<ClearanceError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClearanceError);
  return error as ClearanceError;
};

/** A committed repository with a store full of run files at `<top>/<store>`, untracked. */
const repoWithStore = (store = '.reviews'): TestRepo => {
  const repo = makeRepo();
  repo.write('src/a.js', 'one\n');
  repo.commitAll('one');
  repo.write(`${store}/runs/pr-1.jsonl`, '{"seq":1}\n');
  repo.write(`${store}/runs/pr-1.head`, 'anchor\n');
  return repo;
};

const namesIn = (repo: TestRepo, tree: string | undefined): string[] =>
  repo
    .git('ls-tree', '-r', '--name-only', tree ?? 'missing')
    .trim()
    .split('\n');

describe('a store inside the reviewed work tree is no part of the review', () => {
  it('the dirty check leaves it out; without being told where the store is, its files are changes', async () => {
    const repo = repoWithStore();
    const store = join(repo.dir, '.reviews');
    const head = repo.git('rev-parse', 'HEAD').trim();
    const captured = await captureRevision({ round: 1, repo: repo.dir, store });
    expect(captured).toMatchObject({ commit: head, inputSha: head });
    expect(captured.dirty).toBeUndefined();

    const unaware = await rejectionOf(captureRevision({ round: 1, repo: repo.dir }));
    expect(unaware.code).toBe('dirty-tree');
    expect(unaware.details.paths).toEqual(['.reviews/runs/pr-1.head', '.reviews/runs/pr-1.jsonl']);
  });

  it('the --allow-dirty tree holds the real changes and not the store; the gate sees the same tree after the store grew', async () => {
    const repo = repoWithStore();
    const store = join(repo.dir, '.reviews');
    repo.write('src/a.js', 'one, edited\n');
    repo.write('src/new.js', 'new\n');
    const captured = await captureRevision({ round: 1, repo: repo.dir, allowDirty: true, store });
    expect(captured.dirty).toBe(true);
    expect(namesIn(repo, captured.tree)).toEqual(['src/a.js', 'src/new.js']);

    // the round is recorded: the store changes under the work tree, the reviewed files do not
    repo.write('.reviews/runs/pr-1.jsonl', '{"seq":1}\n{"seq":2}\n');
    repo.write('.reviews/runs/pr-2.jsonl', '{"seq":1}\n');
    const observed = await observeWorkspace({ repo: repo.dir, workingTree: true, store });
    expect(observed.workingTree).toBe(captured.tree);
    expect((await inspectWorkspace({ repo: repo.dir, allowDirty: true, store })).tree).toBe(captured.tree);

    // a real edit is still seen
    repo.write('src/new.js', 'new, edited\n');
    const edited = await observeWorkspace({ repo: repo.dir, workingTree: true, store });
    expect(edited.workingTree).not.toBe(captured.tree);
  });

  it('leaves out exactly the store: not a sibling sharing its prefix, not what its name would match as a glob', async () => {
    const repo = repoWithStore('st*');
    repo.write('stx/real.js', 'a real change\n');
    repo.write('st*x', 'another one\n');
    const refused = await rejectionOf(
      captureRevision({ round: 1, repo: repo.dir, store: join(repo.dir, 'st*') }),
    );
    expect(refused.details.paths).toEqual(['st*x', 'stx/real.js']);
  });

  it('is found from a subdirectory and through a symbolic link to the repository', async () => {
    const repo = repoWithStore();
    mkdirSync(join(repo.dir, 'src', 'deep'), { recursive: true });
    const link = join(tempDir(), 'link');
    symlinkSync(repo.dir, link);
    const head = repo.git('rev-parse', 'HEAD').trim();
    const fromBelow = await captureRevision({
      round: 1,
      repo: join(repo.dir, 'src'),
      store: join(link, '.reviews'),
    });
    expect(fromBelow.commit).toBe(head);
    const throughLink = await captureRevision({
      round: 1,
      repo: join(link, 'src'),
      store: join(repo.dir, '.reviews'),
    });
    expect(throughLink.commit).toBe(head);
  });

  it('a store not made yet, one outside the work tree, or one around it hides no real change', async () => {
    const repo = repoWithStore();
    repo.write('src/a.js', 'edited\n');
    for (const store of [join(repo.dir, 'not-yet', 'store'), tempDir(), repo.dir, join(repo.dir, '..')]) {
      const refused = await rejectionOf(captureRevision({ round: 1, repo: repo.dir, store }));
      expect(refused.details.paths).toContain('src/a.js');
    }
  });
});

describe('sharedGitDirOf', () => {
  it("names git's common directory from the top, a subdirectory and a linked worktree alike", async () => {
    const repo = repoWithStore();
    const common = join(realpathSync(repo.dir), '.git');
    expect(await sharedGitDirOf(repo.dir)).toBe(common);
    expect(await sharedGitDirOf(join(repo.dir, 'src'))).toBe(common);
    const linked = join(tempDir(), 'linked');
    repo.git('worktree', 'add', '-q', linked, '-b', 'feature');
    expect(await sharedGitDirOf(linked)).toBe(common);
  });

  it('is undefined outside a work tree: a plain directory, the inside of .git, a bare repository, a missing directory', async () => {
    const repo = repoWithStore();
    const bare = tempDir();
    repo.git('clone', '-q', '--bare', repo.dir, bare);
    for (const dir of [tempDir(), join(repo.dir, '.git'), bare, join(tempDir(), 'missing')]) {
      expect(await sharedGitDirOf(dir)).toBeUndefined();
    }
  });
});
