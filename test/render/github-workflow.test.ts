import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { FINGERPRINT_KEY } from '../../src/render/sarif.js';
import { readAsRunner } from '../support/actions-runner.js';
import { cli } from '../support/cli.js';
import { makeRepo, tempDir } from '../support/git-repo.js';
import { PR, runWorkflow, sarifResultFor, stepNamed } from './workflow-runner.js';

/**
 * The test's stand-in for the reviewer step the page leaves to you: it prints the round report the
 * test wrote for this push (a shell `cat`, so the workflow's own steps are the only clearance
 * processes a push starts).
 */
const REVIEWER = `#!/usr/bin/env bash
set -euo pipefail
cat "$REVIEW_PLAN/report.json"
`;

const code = (lines: number, first = 1) =>
  `${Array.from({ length: lines }, (_, i) => `call(${i + first});`).join('\n')}\n`;

const major = (line: number) => ({
  file: 'src/service.js',
  line,
  category: 'correctness',
  summary: `call ${line} ignores its error, 100%: always`,
  severity: 'major',
  confirmed: true,
  evidence: `call(${line}) returns an error nobody reads`,
});
const nit = (line: number) => ({
  file: 'src/style.js',
  line,
  category: 'style',
  summary: `nit ${line}`,
  severity: 'nit',
  confirmed: true,
  evidence: 'style',
});
const MAJORS = Array.from({ length: 12 }, (_, i) => major(i + 1));

describe('docs/github-actions.md, run locally', () => {
  it('three pushes of one pull request: annotations, step summaries and the gate as the check', async () => {
    const repo = makeRepo();
    repo.write('src/service.js', code(20));
    repo.write('src/style.js', code(5));
    repo.commitAll('base');
    repo.git('update-ref', 'refs/remotes/origin/main', 'HEAD');
    repo.git('checkout', '-q', '-b', 'feature');
    repo.write('.github/clearance-review.sh', REVIEWER);
    chmodSync(path.join(repo.dir, '.github/clearance-review.sh'), 0o755);
    repo.write('src/service.js', code(21));
    repo.write('src/style.js', code(6));
    const head1 = repo.commitAll('feature: one more call');
    const plan = tempDir('clearance-plan-');
    const cache = path.join(tempDir('clearance-cache-'), 'store');
    mkdirSync(plan, { recursive: true });
    const ids = MAJORS.map((m) => findingId(m));

    // push 1: twelve blocking findings and two nits; the gate refuses
    const review = (round: number, head: string, said: object) =>
      writeFileSync(
        path.join(plan, 'report.json'),
        JSON.stringify({
          runId: `pr-${PR}`,
          round,
          inputSha: head,
          completed: true,
          candidates: [],
          decisions: [],
          ...said,
        }),
      );
    review(1, head1, { candidates: [...MAJORS, nit(1), nit(2)] });
    const run1 = runWorkflow(repo.dir, head1, 1, cache, plan);
    expect(run1.map((r) => [r.step.name ?? r.step.uses, r.status])).toEqual([
      ['actions/checkout@v4', 'emulated'],
      ['actions/setup-node@v4', 'emulated'],
      ['Keep the store outside the work tree', 'ok'],
      ['Install clearance', 'ok'],
      ["Restore the review's store", 'emulated'],
      ['Open the review, or capture the new head as the next round', 'ok'],
      ['Review the round', 'ok'],
      ['Record the round', 'ok'],
      ["Save the review's store", 'emulated'],
      ['Gate', 'failed'],
      ['github/codeql-action/upload-sarif@v3', 'emulated'],
    ]);
    const gate1 = stepNamed(run1, 'Gate');
    const lines1 = gate1.stdout.trimEnd().split('\n');
    expect(lines1[0]).toBe(
      `::error title=clearance gate%3A pr-${PR} refused (not-converged)::run pr-${PR} is open after round 1, not converged: only a converged review approves`,
    );
    expect(lines1.filter((l) => l.startsWith('::error '))).toHaveLength(10);
    expect(lines1[1]).toBe(
      '::error file=src/service.js,line=1,title=blocking major correctness::call 1 ignores its error, 100%25: always%0Afinding ' +
        `${ids[0]?.slice(0, 12)}, open 1 round`,
    );
    expect(lines1.filter((l) => l.startsWith('::notice file=src/style.js'))).toHaveLength(2);
    // read as the runner reads it: the annotations act, every other line is in a stopped region
    const read1 = readAsRunner(gate1.stdout);
    expect(read1.acted).toEqual(
      lines1.filter((l) => /^::(error|warning|notice) /.test(l)).map((l) => l.slice(2, l.indexOf(' '))),
    );
    expect(read1.outside.filter((l) => l !== '')).toHaveLength(read1.acted.length);
    expect(lines1).toContain(
      `clearance: 3 more error annotation(s) not shown (GitHub shows 10 of each level): clearance findings pr-${PR} --status open`,
    );
    expect(gate1.summary).toContain(`## clearance: pr\\-${PR} is open`);
    expect(gate1.summary).toContain('**Gate: refused (not\\-converged).**');
    expect(gate1.summary).toContain('### Blocking findings: 12');
    expect(gate1.summary).toContain(
      `| \`${ids[0]?.slice(0, 12)}\` | major | src\\/service\\.js\\:1 | call 1 ignores its error\\, 100\\%\\: always | 1 round(s) |`,
    );
    expect(gate1.summary).toContain('### Rounds: 1 of 4');

    // push 2: three lines inserted above (every finding's line moves); one stays open, the rest are fixed
    repo.write('src/service.js', `// a\n// b\n// c\n${code(21)}`);
    const head2 = repo.commitAll('fix eleven, move everything down');
    review(2, head2, {
      decisions: ids.map((id, i) => ({
        id,
        status: i === 0 ? 'open' : 'fixed',
        evidence: i === 0 ? 'moved to line 4, still ignores the error' : 'checked now',
      })),
    });
    const run2 = runWorkflow(repo.dir, head2, 2, cache, plan);
    expect(stepNamed(run2, 'Gate').status).toBe('failed');
    const gate2 = stepNamed(run2, 'Gate').stdout.split('\n');
    // the finding follows its code: the annotation is on line 4, where it is now
    expect(gate2.filter((l) => l.startsWith('::error file='))).toEqual([
      `::error file=src/service.js,line=4,title=blocking major correctness::call 1 ignores its error, 100%25: always%0Afinding ${ids[0]?.slice(0, 12)}, open 2 rounds; cited at src/service.js:1`,
    ]);
    expect(stepNamed(run2, 'Gate').summary).toContain('### Rounds: 2 of 4');

    // push 3: the last one fixed; the gate approves this head commit
    repo.write('src/service.js', `// a\n// b\n// c\n// fixed\n${code(21)}`);
    const head3 = repo.commitAll('fix the last');
    review(3, head3, {
      decisions: [{ id: ids[0], status: 'fixed', evidence: 'the error is returned now' }],
    });
    const run3 = runWorkflow(repo.dir, head3, 3, cache, plan);
    expect(run3.map((r) => r.status).filter((s) => s === 'failed')).toEqual([]);
    const gate3 = stepNamed(run3, 'Gate');
    expect(gate3.stdout.split('\n')[0]).toBe(
      `::notice title=clearance gate%3A pr-${PR} approved::approved: HEAD is ${head3.slice(0, 12)}, as round 3 reviewed`,
    );
    expect(gate3.stdout).not.toContain('::error');
    expect(gate3.summary).toContain(`## clearance: pr\\-${PR} is converged`);
    expect(gate3.summary).toContain('**Gate: approved.**');
    expect(gate3.summary).toContain('### Blocking findings: 0');
    expect(gate3.summary).toContain('### Rounds: 3 of 4');

    // a later push: the check on the new head fails again (bound to the reviewed commit)
    repo.write('src/style.js', code(7));
    const head4 = repo.commitAll('one more change after approval');
    const gate4 = await cli(['gate', `pr-${PR}`, '--repo', repo.dir, '--format', 'github'], {
      env: { CLEARANCE_DIR: cache },
    });
    expect(gate4.code).toBe(1);
    expect(gate4.stdout.split('\n')[0]).toMatch(
      new RegExp(
        `^::error title=clearance gate%3A pr-${PR} refused \\(head-moved\\)::HEAD is ${head4.slice(0, 12)}`,
      ),
    );

    // what code scanning received each time: one fingerprint for the finding whose line moved
    const uploaded = [run1, run2, run3].map((r) => sarifResultFor(r, ids[0] as string));
    expect(uploaded.map((u) => u.partialFingerprints[FINGERPRINT_KEY])).toEqual([ids[0], ids[0], ids[0]]);
    expect(uploaded.map((u) => [u.baselineState, u.kind])).toEqual([
      ['new', 'fail'],
      ['updated', 'fail'],
      ['absent', 'pass'],
    ]);
    // real processes by the dozen, on a 2-core box shared with other work: room to finish, not a timing assertion
  }, 180_000);
});
