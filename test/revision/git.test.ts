import { describe, expect, it } from 'vitest';
import { ClearanceError } from '../../src/errors.js';
import { git, gitBytes } from '../../src/revision/index.js';
import { makeRepo, tempDir } from '../support/git-repo.js';

const failureOf = async (promise: Promise<unknown>): Promise<ClearanceError> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ClearanceError);
  return error as ClearanceError;
};

describe('git', () => {
  it('refuses a directory outside any repository as not-a-repository, naming command, directory and stderr', async () => {
    const dir = tempDir();
    const error = await failureOf(git(dir, ['rev-parse', 'HEAD']));
    expect(error.code).toBe('not-a-repository');
    // clearance's words and the fix; git's own command and words stay in the details
    expect(error.message).toBe(
      `${dir} is not inside a git repository: give the directory of the one under review, or name the input yourself (an input sha)`,
    );
    expect(error.details).toMatchObject({ command: 'git rev-parse HEAD', repo: dir });
    expect(String(error.details.stderr)).toContain('not a git repository');
  });

  it('turns any other failure into git-failed with git stderr in the message', async () => {
    const repo = makeRepo();
    const error = await failureOf(git(repo.dir, ['rev-parse', '--verify', 'no-such-branch']));
    expect(error.code).toBe('git-failed');
    expect(error.message).toContain('git rev-parse --verify no-such-branch');
    expect(error.message).toContain(repo.dir);
    expect(error.message).toContain('fatal: Needed a single revision');
  });

  it('feeds input on stdin and returns exact bytes', async () => {
    const repo = makeRepo();
    const oid = (await git(repo.dir, ['hash-object', '-w', '--stdin'], { input: 'hello\n' })).trim();
    expect(oid).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    const binary = Buffer.from([0, 255, 10, 13, 0x80]);
    repo.write('bin.dat', binary);
    const blob = (await git(repo.dir, ['hash-object', '-w', 'bin.dat'])).trim();
    expect(await gitBytes(repo.dir, ['cat-file', 'blob', blob])).toEqual(binary);
  });
});

describe('git environment', () => {
  it('ignores an inherited GIT_DIR: -C names the repository, whatever a hook exported', async () => {
    const mine = makeRepo();
    mine.write('a.txt', 'a');
    const head = mine.commitAll('one');
    const other = makeRepo();
    other.write('b.txt', 'b');
    other.commitAll('two');
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = `${other.dir}/.git`;
    try {
      expect((await git(mine.dir, ['rev-parse', 'HEAD'])).trim()).toBe(head);
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  });
});
