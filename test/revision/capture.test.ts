import { createHash } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClearanceError } from '../../src/errors.js';
import { captureRevision, inspectWorkspace } from '../../src/revision/index.js';
import { linesOf, makeRepo, type TestRepo, tempDir } from '../support/git-repo.js';
import { expectedChanges } from './support/diff.js';

const rejectionOf = async (promise: Promise<unknown>): Promise<ClearanceError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClearanceError);
  return error as ClearanceError;
};

const head = (repo: TestRepo) => ({
  commit: repo.git('rev-parse', 'HEAD').trim(),
  tree: repo.git('rev-parse', 'HEAD^{tree}').trim(),
});

const sha256 = (s: string | Buffer): string => createHash('sha256').update(s).digest('hex');

/** A repository with one commit, then a dirty work tree: staged, unstaged, untracked and ignored changes. */
const dirtyRepo = (): TestRepo => {
  const repo = makeRepo();
  repo.write('.gitignore', 'build/\n');
  repo.write('src/a.ts', linesOf('a', 5));
  repo.write('src/b.ts', linesOf('b', 5));
  repo.write('src/c.ts', linesOf('c', 5));
  repo.commitAll('one');
  repo.write('src/a.ts', linesOf('a changed', 5));
  repo.write('src/b.ts', linesOf('b staged', 5));
  repo.git('add', 'src/b.ts');
  repo.write('notes/new file.md', '# New\n');
  repo.write('build/out.js', 'ignored\n');
  return repo;
};

describe('captureRevision on a clean repository', () => {
  it('binds HEAD: commit, its tree, inputSha the commit, nothing touched in round 1 without a base', async () => {
    const repo = makeRepo();
    repo.write('README.md', '# r\n');
    repo.commitAll('one');
    const captured = await captureRevision({ round: 1, repo: repo.dir });
    expect(captured).toEqual({
      round: 1,
      inputSha: head(repo).commit,
      touchedFiles: [],
      renames: [],
      ...head(repo),
    });
  });

  it('compares round 1 with a base, records the base as a commit id, and touches what git diff says', async () => {
    const repo = makeRepo();
    repo.write('keep.ts', linesOf('keep', 8));
    repo.write('gone.ts', linesOf('gone', 8));
    repo.write('old name.ts', linesOf('moved', 20));
    const base = repo.commitAll('base');
    repo.git('tag', 'v1');
    repo.write('keep.ts', linesOf('kept', 8));
    repo.remove('gone.ts');
    repo.remove('old name.ts');
    repo.write('dir/new name.ts', `${linesOf('moved', 20)}one more line\n`);
    repo.write('added.ts', 'export {};\n');
    repo.commitAll('two');

    const captured = await captureRevision({ round: 1, repo: repo.dir, base: 'v1' });
    const raw = repo.git('diff', '--name-status', '-M', '-z', base, 'HEAD');
    const expected = expectedChanges(raw);
    expect(captured.base).toBe(base);
    expect(captured.touchedFiles).toEqual(expected.touched);
    expect(captured.renames).toEqual([{ from: 'old name.ts', to: 'dir/new name.ts' }]);
    expect(new Set(captured.touchedFiles)).toEqual(
      new Set(['keep.ts', 'gone.ts', 'dir/new name.ts', 'added.ts']),
    );
  });

  it('refuses a base that does not exist, naming it', async () => {
    const repo = makeRepo();
    repo.commitAll('one');
    const error = await rejectionOf(captureRevision({ round: 1, repo: repo.dir, base: 'no-such-branch' }));
    expect(error.code).toBe('git-failed');
    expect(error.message).toContain('base no-such-branch is not a commit');
  });

  it('captures a rename between rounds as {from, to} and touches only the new path', async () => {
    const repo = makeRepo();
    // whatever the user's configuration says, a capture detects renames
    repo.git('config', 'diff.renames', 'false');
    repo.write('src/service.ts', linesOf('service', 30));
    repo.write('src/other.ts', linesOf('other', 3));
    const first = repo.commitAll('one');
    repo.git('mv', 'src/service.ts', 'src/server.ts');
    repo.write('src/server.ts', `${linesOf('service', 30)}// edited after the move\n`);
    repo.commitAll('rename');
    const captured = await captureRevision({ round: 2, repo: repo.dir, lastReviewed: { commit: first } });
    expect(captured.renames).toEqual([{ from: 'src/service.ts', to: 'src/server.ts' }]);
    expect(captured.touchedFiles).toEqual(['src/server.ts']);
  });

  it('prefers the last reviewed tree over its commit', async () => {
    const repo = makeRepo();
    repo.write('a.ts', '1\n');
    const first = repo.commitAll('one');
    repo.write('a.ts', '2\n');
    repo.commitAll('two');
    const lastReviewed = { commit: first, tree: head(repo).tree };
    const captured = await captureRevision({ round: 2, repo: repo.dir, lastReviewed });
    expect(captured.touchedFiles).toEqual([]);
    const byCommit = await captureRevision({ round: 2, repo: repo.dir, lastReviewed: { commit: first } });
    expect(byCommit.touchedFiles).toEqual(['a.ts']);
  });

  it('refuses a directory that is not a work tree', async () => {
    const outside = await rejectionOf(captureRevision({ round: 1, repo: tempDir() }));
    expect(outside.code).toBe('not-a-repository');
    const repo = makeRepo();
    repo.commitAll('one');
    const dotGit = await rejectionOf(captureRevision({ round: 1, repo: join(repo.dir, '.git') }));
    expect(dotGit.code).toBe('not-a-repository');
  });
});

describe('captureRevision on a dirty work tree', () => {
  it('refuses it with dirty-tree, listing the changed paths and pointing at --allow-dirty', async () => {
    const repo = dirtyRepo();
    const error = await rejectionOf(captureRevision({ round: 1, repo: repo.dir }));
    expect(error.code).toBe('dirty-tree');
    for (const path of ['src/a.ts', 'src/b.ts', 'notes/new file.md']) expect(error.message).toContain(path);
    expect(error.message).not.toContain('build/out.js');
    expect(error.message).toContain('--allow-dirty');
  });

  it('lists at most five paths and counts the rest', async () => {
    const repo = makeRepo();
    repo.commitAll('one');
    for (let i = 1; i <= 7; i++) repo.write(`f${i}.txt`, `${i}\n`);
    const error = await rejectionOf(captureRevision({ round: 1, repo: repo.dir }));
    expect(error.message).toContain('f5.txt');
    expect(error.message).not.toContain('f6.txt');
    expect(error.message).toContain('and 2 more');
  });

  it('with allowDirty binds the working files without touching the user index', async () => {
    const repo = dirtyRepo();
    // same bytes, new mtime: a plain `git status` would refresh this entry and rewrite the index
    utimesSync(join(repo.dir, 'src/c.ts'), new Date('2030-01-01'), new Date('2030-01-01'));
    const status = () => repo.git('--no-optional-locks', 'status', '--porcelain=v1');
    const indexPath = join(repo.dir, '.git', 'index');
    const indexBefore = readFileSync(indexPath);
    const statusBefore = status();

    const captured = await captureRevision({ round: 1, repo: repo.dir, allowDirty: true });

    expect(readFileSync(indexPath)).toEqual(indexBefore);
    expect(status()).toBe(statusBefore);
    expect(captured.commit).toBe(head(repo).commit);
    expect(captured.dirty).toBe(true);
    expect(captured.tree).not.toBe(head(repo).tree);
    expect(captured.inputSha).toBe(captured.tree);
    // the tree holds the files as they are on disk, untracked included, ignored left out
    const tree = captured.tree as string;
    expect(repo.git('show', `${tree}:src/a.ts`)).toBe(linesOf('a changed', 5));
    expect(repo.git('show', `${tree}:src/b.ts`)).toBe(linesOf('b staged', 5));
    expect(repo.git('ls-tree', '-r', '--name-only', tree).split('\n')).toEqual(
      expect.arrayContaining(['notes/new file.md', '.gitignore']),
    );
    expect(repo.git('ls-tree', '-r', '--name-only', tree)).not.toContain('build/out.js');
  });

  it('lets a later round diff from a dirty capture, because its objects were kept', async () => {
    const repo = dirtyRepo();
    const first = await captureRevision({ round: 1, repo: repo.dir, allowDirty: true });
    repo.commitAll('the reviewed changes');
    repo.write('src/a.ts', linesOf('a changed again', 5));
    repo.commitAll('a fix');
    const second = await captureRevision({ round: 2, repo: repo.dir, lastReviewed: { tree: first.tree } });
    expect(second.dirty).toBeUndefined();
    expect(second.touchedFiles).toEqual(['src/a.ts']);
  });

  it('is not dirty when the changes cancel out to HEAD own files', async () => {
    const repo = makeRepo();
    repo.write('a.ts', '1\n');
    const commit = repo.commitAll('one');
    repo.write('a.ts', '2\n');
    repo.git('add', 'a.ts');
    repo.write('a.ts', '1\n');
    const captured = await captureRevision({ round: 1, repo: repo.dir, allowDirty: true });
    expect(captured.dirty).toBeUndefined();
    expect(captured.inputSha).toBe(commit);
  });
});

describe('inspectWorkspace', () => {
  it('gives what a capture binds, refuses a dirty tree the same way, and writes no object into the repository', async () => {
    const repo = dirtyRepo();
    const refused = await rejectionOf(inspectWorkspace({ repo: repo.dir }));
    expect(refused.code).toBe('dirty-tree');

    const indexBefore = readFileSync(join(repo.dir, '.git', 'index'));
    const objectsBefore = repo.git('count-objects', '-v');
    const seen = await inspectWorkspace({ repo: repo.dir, allowDirty: true });
    expect(repo.git('count-objects', '-v')).toBe(objectsBefore);
    expect(readFileSync(join(repo.dir, '.git', 'index'))).toEqual(indexBefore);
    expect(() => repo.git('cat-file', '-e', seen.tree as string)).toThrow();

    const captured = await captureRevision({ round: 1, repo: repo.dir, allowDirty: true });
    expect(seen).toEqual({ commit: captured.commit, tree: captured.tree, dirty: true });
  });

  it('on a clean tree gives HEAD and the artifact hash', async () => {
    const repo = makeRepo();
    repo.commitAll('one');
    const doc = join(tempDir(), 'spec.md');
    writeFileSync(doc, '# Spec\n');
    expect(await inspectWorkspace({ repo: repo.dir, artifact: doc })).toEqual({
      ...head(repo),
      artifactSha: sha256('# Spec\n'),
    });
  });
});

describe('captureRevision of a document artifact', () => {
  it('hashes its bytes; alone the hash is the input, with a repository both are', async () => {
    const doc = join(tempDir(), 'design.md');
    writeFileSync(doc, '# Design\n\nbody\n');
    const alone = await captureRevision({ round: 1, artifact: doc });
    expect(alone).toEqual({
      round: 1,
      inputSha: sha256('# Design\n\nbody\n'),
      artifactSha: sha256('# Design\n\nbody\n'),
      touchedFiles: [],
      renames: [],
    });

    const repo = makeRepo();
    const commit = repo.commitAll('one');
    const both = await captureRevision({ round: 1, repo: repo.dir, artifact: doc });
    expect(both.inputSha).toBe(sha256(`${commit}:${alone.artifactSha}`));
  });

  it('touches the artifact when its hash differs from the last reviewed one', async () => {
    const doc = join(tempDir(), 'design.md');
    writeFileSync(doc, 'v1\n');
    const first = await captureRevision({ round: 1, artifact: doc });
    const same = await captureRevision({
      round: 2,
      artifact: doc,
      lastReviewed: { artifactSha: first.artifactSha },
    });
    expect(same.touchedFiles).toEqual([]);
    writeFileSync(doc, 'v2\n');
    const changed = await captureRevision({
      round: 2,
      artifact: doc,
      lastReviewed: { artifactSha: first.artifactSha },
    });
    expect(changed.touchedFiles).toEqual([doc]);
  });

  it('refuses an unreadable artifact, naming the path and the OS error', async () => {
    const missing = join(tempDir(), 'absent.md');
    const error = await rejectionOf(captureRevision({ round: 1, artifact: missing }));
    expect(error.code).toBe('artifact-unreadable');
    expect(error.message).toContain(missing);
    expect(error.message).toContain('ENOENT');
  });

  it('refuses to capture nothing', async () => {
    const error = await rejectionOf(captureRevision({ round: 1 }));
    expect(error.code).toBe('usage');
  });
});
