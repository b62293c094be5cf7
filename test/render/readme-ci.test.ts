import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, cli } from '../support/cli.js';
import { makeRepo } from '../support/git-repo.js';
import { sarifValidationErrors } from './sarif-validator.js';

// the sections the README's CI part moved to
const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/ci.md');

/** The command lines of the first sh block after a heading of docs/ci.md, comments dropped. */
const linesAfter = (heading: string): string[] => {
  const text = readFileSync(DOC, 'utf8');
  const at = text.indexOf(heading);
  if (at === -1) throw new Error(`docs/ci.md has no ${heading}`);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at))?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line !== '');
};

/** One line in bash, as a reader runs it, with `clearance` the built CLI and the default store. */
const shell = (line: string, cwd: string, env: NodeJS.ProcessEnv = {}) => {
  const { CLEARANCE_DIR: _, ...rest } = process.env;
  return spawnSync('bash', ['-c', `clearance() { "$CLEARANCE_NODE" "$CLEARANCE_CLI" "$@"; }\n${line}`], {
    cwd,
    env: {
      ...rest,
      NO_COLOR: '1',
      CLEARANCE_ACTOR: 'tester',
      CLEARANCE_NODE: process.execPath,
      CLEARANCE_CLI: CLI,
      ...env,
    },
    encoding: 'utf8',
  });
};

describe('the docs/ci.md sections for CI, code scanning and the report page run as written', () => {
  it('on a run with one open blocking finding', async () => {
    const repo = makeRepo();
    repo.write('src/service.js', 'open()\nread()\nclose()\n');
    const head = repo.commitAll('service');
    // the run these sections read is set up in-process (the sections' own lines go through bash)
    const here = (args: string[], input?: string) =>
      cli(args, {
        cwd: repo.dir,
        env: { CLEARANCE_DIR: undefined },
        ...(input === undefined ? {} : { input }),
      });
    expect((await here(['open', 'pr-236', '--repo', '.'])).code).toBe(0);
    const report = {
      runId: 'pr-236',
      round: 1,
      inputSha: head,
      completed: true,
      candidates: [
        {
          file: 'src/service.js',
          line: 2,
          category: 'correctness',
          summary: 'read() result unchecked',
          severity: 'major',
          confirmed: true,
          evidence: 'read() returns null at EOF',
        },
      ],
    };
    expect((await here(['record', 'pr-236', '--report', '-'], JSON.stringify(report))).code).toBe(0);

    const [status, gate] = linesAfter('## GitHub Actions: `--format github`').map((line) =>
      shell(line, repo.dir),
    );
    expect(status?.status).toBe(0);
    expect(status?.stdout).toMatch(/^::notice title=clearance%3A pr-236 is open::/);
    expect(status?.stdout).toContain(
      '::error file=src/service.js,line=2,title=blocking major correctness::read() result unchecked',
    );
    expect(gate?.status).toBe(1); // not converged: the check fails, as it should
    expect(gate?.stdout).toMatch(/^::error title=clearance gate%3A pr-236 refused \(not-converged\)::/);

    for (const line of linesAfter('## Code scanning: SARIF'))
      expect(shell(line, repo.dir).status, line).toBe(0);
    for (const file of ['clearance.sarif', 'round-1.sarif']) {
      const sarif = JSON.parse(readFileSync(path.join(repo.dir, file), 'utf8')) as unknown;
      expect(sarifValidationErrors(sarif)).toEqual([]);
    }

    for (const line of linesAfter('## A page of how the verdict was reached'))
      expect(shell(line, repo.dir).status, line).toBe(0);
    expect(readFileSync(path.join(repo.dir, 'review.html'), 'utf8')).toContain('read() result unchecked');
  });
});
