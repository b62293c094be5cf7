import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, idOf, report } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';

/**
 * The trend where people look, through the built CLI on a real store: `status` and `explain` print
 * each round's tally as a table, the advisory trend (saying it is advisory) and the same-input
 * rounds; `explain` lists the deferred candidates with why; `replay` says why a round reviewed the
 * same input again.
 */

const sha = (label: string) => label.padEnd(40, '0');

describe('the trend in the text of status, explain and replay', () => {
  it('a run that reviewed the same input again and deferred a minor says so everywhere', async () => {
    const dir = tempDir('clearance-trend-');
    const run = (...args: string[]) => cli(['--dir', dir, ...args]);
    const ok = async (...args: string[]) => {
      const r = await run(...args);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      return r;
    };
    const file = async (name: string, value: unknown) => {
      const target = path.join(dir, name);
      await writeFile(target, JSON.stringify(value));
      return target;
    };
    const policy = await file('policy.json', {
      name: 'rising',
      maxRounds: 4,
      sameInputRounds: 1,
      severities: { major: { blocks: true }, minor: { blocks: false, untilRound: 1 } },
    });
    const leak = candidate();
    const other = candidate({ line: 20, summary: 'Off by one' });
    const late = candidate({ line: 30, severity: 'minor', summary: 'Name the timeout' });
    await ok('open', 'r', '--policy-file', policy, '--input-sha', sha('A'));
    await ok(
      'record',
      'r',
      '--report',
      await file('r1.json', report(1, 'A', { runId: 'r', candidates: [leak, other] })),
    );

    // no round on unchanged bytes, unless it is a recorded choice
    const refused = await run('capture', 'r', '--input-sha', sha('A'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/unchanged-input|reviewed/);
    await ok('capture', 'r', '--input-sha', sha('A'), '--same-input', '--reason', 'the reviewer timed out');
    await ok(
      'record',
      'r',
      '--report',
      await file('r2.json', report(2, 'A', { runId: 'r', reviewer: 'ada', candidates: [late] })),
    );
    await ok('capture', 'r', '--input-sha', sha('B'), '--touched', 'src/service.js');
    await ok(
      'record',
      'r',
      '--report',
      await file(
        'r3.json',
        report(3, 'B', {
          runId: 'r',
          decisions: [
            { id: idOf(leak), status: 'fixed', evidence: 'closed in finally' },
            { id: idOf(other), status: 'open', evidence: 'still 4 retries' },
          ],
        }),
      ),
    );

    const status = (await ok('status', 'r')).stdout.split('\n');
    const table = status.indexOf('rounds:');
    expect(status.slice(table, table + 6)).toEqual([
      'rounds:',
      '  round  result    new  fixed  withdrawn  reopened  deferred  open  blocking  files  spent',
      '      1  complete    2      0          0         0         0     2         2      0  -',
      '      2  complete    0      0          0         0         1     2         2      0  -',
      '      3  complete    0      1          0         0         0     1         1      1  -',
      '  (open, blocking: findings open after the round; files: changed since the input reviewed before it)',
    ]);
    expect(status).toContain(
      'trend: flat (advisory, never the verdict): the blocking findings open neither fell twice nor rose twice over the last two rounds (blocking open: 2 after round 1, 2 after round 2, 1 after round 3)',
    );
    expect(status).toContain(
      'rounds on unchanged input: 1 of 1 allowed; round 2, because the reviewer timed out',
    );
    expect(status).toContain(
      'findings: 1 open (1 blocking), 1 fixed, 0 withdrawn, 0 suppressed; 1 deferred to a follow-up',
    );

    const explain = (await ok('explain', 'r')).stdout.split('\n');
    expect(explain).toContain(
      'rounds on unchanged input: 1 of 1 allowed; round 2, because the reviewer timed out',
    );
    const deferred = explain.indexOf(
      'Deferred to a follow-up: 1 (kept on the record, never findings, never blocking)',
    );
    expect(explain.slice(deferred + 1)).toEqual([
      `- ${idOf(late).slice(0, 12)} [minor] src/service.js:30 Name the timeout`,
      '    minor is admitted until round 1; this came in round 2; proposed by ada',
      `    evidence: ${late.evidence}`,
      '',
    ]);

    const replay = (await ok('replay', 'r')).stdout;
    expect(replay).toMatch(
      /revision\.captured round 2 → open\n {4}the same input again: the reviewer timed out\n/,
    );
    expect(replay).toContain(
      `deferred minor ${idOf(late).slice(0, 12)} src/service.js:30 to a follow-up (minor is no longer admitted in round 2)`,
    );
  });
});
