import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, type CliResult, cli } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/git-repo.js';

// the README's loop on a pull request moved here (the README's own first loop runs in test/docs/runnable.test.ts)
const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/loop.md');

/** The command lines of docs/loop.md's "A loop on a pull request" block, comments dropped, as a reader copies them. */
const readmeLoop = (): string[] => {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf('## A loop on a pull request');
  if (at === -1) throw new Error('docs/loop.md has no section "A loop on a pull request"');
  const section = text.slice(at);
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
};

/** The environment of a person at a shell: no store named, so the default is what is tested. */
const shellEnv = (): NodeJS.ProcessEnv => {
  const { CLEARANCE_DIR: _, ...env } = process.env;
  return { ...env, NO_COLOR: '1', CLEARANCE_ACTOR: 'tester' };
};

/** Run one documented line in bash, exactly as written, with `clearance` the built CLI. */
const shell = (line: string, cwd: string): CliResult => {
  const ran = spawnSync('bash', ['-c', `clearance() { "$CLEARANCE_NODE" "$CLEARANCE_CLI" "$@"; }\n${line}`], {
    cwd,
    env: { ...shellEnv(), CLEARANCE_NODE: process.execPath, CLEARANCE_CLI: CLI },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: ran.status ?? -1, stdout: ran.stdout, stderr: ran.stderr, json: {} };
};

const at =
  (cwd: string) =>
  (...args: string[]) =>
    cli(args, { cwd, env: shellEnv() });

const SERVICE = 'export const open = () => {\n  const handle = acquire();\n  return handle.read();\n};\n';
const FIXED =
  'export const open = () => {\n  const handle = acquire();\n  try {\n    return handle.read();\n  } finally {\n    handle.close();\n  }\n};\n';

const roundReport = (round: number, inputSha: string, extra: Record<string, unknown>) =>
  `${JSON.stringify({ runId: 'pr-236', round, inputSha, completed: true, candidates: [], ...extra }, null, 2)}\n`;

describe("docs/loop.md's loop on a pull request, run as written in a fresh repository", () => {
  it('open, record, capture, record with a decision, status, explain, gate: every step exits 0 and the tree stays clean', async () => {
    // a real remote so that `--base origin/main` names what it names for a reader
    const origin = tempDir('clearance-origin-');
    spawnSync('git', ['init', '-q', '--bare', origin]);
    const repo = makeRepo();
    repo.write('README.md', '# service\n');
    repo.commitAll('initial');
    repo.git('remote', 'add', 'origin', origin);
    repo.git('push', '-q', 'origin', 'main');
    repo.write('src/service.js', SERVICE);
    repo.commitAll('open a handle');
    const excludeBefore = readFileSync(path.join(repo.dir, '.git/info/exclude'), 'utf8');
    const review = path.join(path.dirname(repo.dir), 'review');
    mkdirSync(review, { recursive: true });
    const run = at(repo.dir);
    const inputSha = async () => (await run('status', 'pr-236', '--json')).json.inputSha as string;

    const lines = readmeLoop();
    expect(lines.map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      'clearance open',
      'clearance record',
      'clearance capture',
      'clearance record',
      'clearance status',
      'clearance explain',
      'clearance gate',
    ]);
    const [open, record1, capture, record2, status, explain, gate] = lines as [string, ...string[]];
    const step = (line: string | undefined): CliResult => {
      const result = shell(line ?? '', repo.dir);
      expect({ line, code: result.code, stderr: result.stderr }).toEqual({ line, code: 0, stderr: '' });
      return result;
    };

    const store = path.join(realpathSync(repo.dir), '.git', 'clearance');
    expect(step(open).stdout).toContain(`store: ${store}\n`);

    // the reviewer hands in round 1 where the documented line reads it: one blocking finding
    writeFileSync(
      path.join(review, 'round-1.json'),
      roundReport(1, await inputSha(), {
        candidates: [
          {
            file: 'src/service.js',
            line: 2,
            category: 'correctness',
            summary: 'Handle not closed when read throws',
            severity: 'major',
            confirmed: true,
            evidence: 'read() throws on EOF; nothing closes the handle',
          },
        ],
      }),
    );
    expect(step(record1).stdout).toMatch(/recorded: open/);
    const [finding] = (await run('findings', 'pr-236', '--json')).json.findings as Array<{ id: string }>;

    // the author pushes a fix; step 3 is where the loop broke while the store dirtied the tree
    repo.write('src/service.js', FIXED);
    repo.commitAll('close the handle');
    step(capture);
    writeFileSync(
      path.join(review, 'round-2.json'),
      roundReport(2, await inputSha(), {
        decisions: [{ id: finding?.id, status: 'fixed', evidence: 'closed in a finally block' }],
      }),
    );
    expect(step(record2).stdout).toMatch(/recorded: converged/);
    expect(step(status).stdout).toMatch(/converged/);
    step(explain);
    expect(step(gate).stdout).toMatch(/approved|reviewed/);

    // nothing of the loop is in the reviewed tree, and no ignore file was needed for that
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(readFileSync(path.join(repo.dir, '.git/info/exclude'), 'utf8')).toBe(excludeBefore);
    expect(repo.git('ls-files', '--others', '--ignored', '--exclude-standard')).toBe('');
    expect(readFileSync(path.join(store, 'runs', 'pr-236.jsonl'), 'utf8').split('\n')).toHaveLength(6);

    // a second open in the same repository is no longer refused as dirty
    const again = await run('open', 'pr-237', '--repo', '.', '--json');
    expect(again.json).toMatchObject({ ok: true, store });
  });
});
