import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Fixed dates make every commit id reproducible from run to run. */
const ENV = {
  ...process.env,
  LC_ALL: 'C',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
};

const made: string[] = [];

export const tempDir = (prefix = 'clearance-revision-'): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

/** Remove every directory this module made; call from `afterAll`. */
export const removeTempDirs = (): void => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
};

export type TestRepo = Readonly<{
  dir: string;
  git: (...args: string[]) => string;
  write: (path: string, content: string | Uint8Array) => void;
  remove: (path: string) => void;
  /** stage everything and commit; returns the new commit id */
  commitAll: (message: string) => string;
}>;

/**
 * The commit HEAD names, read from the repository's files (a fresh test repository keeps its refs
 * loose): one `git rev-parse` process less per commit. Null where they do not say it plainly.
 */
const headOf = (dir: string): string | null => {
  const read = (file: string): string | null => {
    try {
      return readFileSync(join(dir, '.git', file), 'utf8').trim();
    } catch {
      return null;
    }
  };
  const head = read('HEAD');
  const target = head?.startsWith('ref: ') ? read(head.slice('ref: '.length)) : head;
  return target !== null && target !== undefined && /^[0-9a-f]{40}$/.test(target) ? target : null;
};

const runGit = (dir: string, args: ReadonlyArray<string>): string =>
  execFileSync('git', ['-C', dir, ...args], {
    env: ENV,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

let template: string | undefined;

/**
 * The `.git` of a fresh repository, made by `git init` once per test process and copied into each
 * new one: a `git init` process per repository was a visible share of the suite's process starts.
 * Its config carries the identity (CI has no global one) and turns automatic maintenance off,
 * which otherwise starts a `git maintenance run --auto` process after every commit.
 */
const freshGitDir = (): string => {
  if (template === undefined) {
    const home = mkdtempSync(join(tmpdir(), 'clearance-git-template-'));
    runGit(home, ['init', '-q', '-b', 'main']);
    // the sample hooks do nothing, and every repository would copy them and every cleanup remove them
    rmSync(join(home, '.git', 'hooks'), { recursive: true, force: true });
    appendFileSync(
      join(home, '.git', 'config'),
      '[user]\n\tname = Clearance Test\n\temail = test@clearance.invalid\n[commit]\n\tgpgsign = false\n' +
        '[maintenance]\n\tauto = false\n',
    );
    process.once('exit', () => rmSync(home, { recursive: true, force: true }));
    template = join(home, '.git');
  }
  return template;
};

/** A real repository in a temp dir, with its own identity. */
export const makeRepo = (): TestRepo => {
  const dir = tempDir();
  const git = (...args: string[]): string => runGit(dir, args);
  cpSync(freshGitDir(), join(dir, '.git'), { recursive: true });
  const write = (path: string, content: string | Uint8Array): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  };
  const remove = (path: string): void => rmSync(join(dir, path), { force: true });
  const commitAll = (message: string): string => {
    git('add', '-A');
    git('commit', '-q', '--allow-empty', '-m', message);
    return headOf(dir) ?? git('rev-parse', 'HEAD').trim();
  };
  return { dir, git, write, remove, commitAll };
};

/** `n` numbered lines, so that a small edit keeps a renamed file similar enough to be a rename. */
export const linesOf = (label: string, n: number): string =>
  `${Array.from({ length: n }, (_, i) => `${label} line ${i + 1}`).join('\n')}\n`;
