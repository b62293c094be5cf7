import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { ExplainOutput, StatusRunOutput } from '../../src/operations/schemas/results.js';
import { candidate, decision, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

// Under the standard preset only an `issue` about a bug, a vulnerability or a regression blocks.
const leak = candidate({ category: 'bug', severity: 'issue' });
const LEAK = findingId(leak);

/** A store with run-1 opened under the standard preset, round 1 recorded with the leak open. */
const standardRun = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, '--by', 'tester', ...args]);
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value));
    return at;
  };
  expect((await run('open', 'run-1', '--policy', 'standard', '--input-sha', sha('A'))).code).toBe(0);
  const r1 = await run(
    'record',
    'run-1',
    '--report',
    await write('r1.json', report(1, 'A', { candidates: [leak] })),
  );
  expect(r1.code).toBe(0);
  /** capture round n touching the leak's file, and record the report */
  const round = async (n: number, input: string, over: Parameters<typeof report>[2]) => {
    expect((await run('capture', 'run-1', '--input-sha', sha(input), '--touched', leak.file)).code).toBe(0);
    return run('record', 'run-1', '--report', await write(`r${n}.json`, report(n, input, over)), '--json');
  };
  return { dir, run, write, round, log: path.join(dir, 'runs', 'run-1.jsonl') };
};

describe('stalls and reopening from the command line', () => {
  it('decided open twice under the standard preset: blocked early, and every view says stalled naming the finding', async () => {
    const { run, round } = await standardRun();
    expect((await round(2, 'B', { decisions: [decision(leak, 'open', 'still leaks')] })).json).toMatchObject({
      status: 'open',
    });
    const third = await round(3, 'C', { decisions: [decision(leak, 'open', 'still leaks on abort')] });
    expect(third.code).toBe(0);
    expect(third.json).toMatchObject({ round: 3, status: 'blocked' });

    const status = await run('status', 'run-1', '--json');
    expect(StatusRunOutput.safeParse(status.json).success).toBe(true);
    expect(status.json).toMatchObject({
      status: 'blocked',
      blockedReason: 'stalled',
      stall: { round: 3, findings: [{ id: LEAK, why: 'kept-open' }] },
      maxRounds: 4,
    });
    const statusText = await run('status', 'run-1');
    expect(statusText.stdout).toContain(`stalled at round 3, before the cap: ${LEAK.slice(0, 12)}`);

    const explained = await run('explain', 'run-1', '--json');
    expect(ExplainOutput.safeParse(explained.json).success).toBe(true);
    expect(explained.json).toMatchObject({ blockedReason: 'stalled' });
    expect((await run('explain', 'run-1')).stdout).toContain(
      `blocked early at round 3 of 4: stalled, finding ${LEAK.slice(0, 12)} decided open in 2 consecutive rounds`,
    );
    expect((await run('feedback', 'run-1')).stdout).toContain(
      'The review is blocked early: it stalled at round 3',
    );
    const next = await run('next', 'run-1', '--json');
    expect(next.json).toMatchObject({ action: 'stop', status: 'blocked' });
    expect(next.json?.why).toMatch(/stalled, finding [0-9a-f]{12} decided open in 2 consecutive rounds/);
    const gate = await run('gate', 'run-1', '--json');
    expect(gate.code).toBe(1);
    expect(gate.stderr + gate.stdout).toMatch(/blocked \(stalled: finding [0-9a-f]{12} decided open/);

    // as after the cap, a person goes on: an extension opens it again
    const ext = await run('extend', 'run-1', '--rounds', '1', '--why', 'a rewrite is coming', '--by', 'Ada');
    expect(ext.code).toBe(0);
    expect((await run('status', 'run-1', '--json')).json).toMatchObject({
      status: 'open',
      blockedReason: null,
    });
  });

  it('reopening a finding that is not fixed is refused, naming it and its status, and the store is byte-for-byte unchanged', async () => {
    const { dir, run, write } = await standardRun();
    expect((await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', leak.file)).code).toBe(0);
    const before = await snapshot(dir);
    const refused = await run(
      'record',
      'run-1',
      '--report',
      await write('bad.json', report(2, 'B', { decisions: [decision(leak, 'reopened', 'it came back')] })),
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `reopens finding ${LEAK.slice(0, 12)}, which is open: only a fixed finding can be reopened`,
    );
    // the refused report file was written before the snapshot's comparison: leave it out
    const after = await snapshot(dir);
    after.delete('bad.json');
    expect(after).toEqual(before);
  });

  it('fixed, then reopened in a Markdown review: open again under its own id, on the record', async () => {
    const { run, write } = await standardRun();
    // a second blocking finding, never touched, keeps the run from converging when the leak is fixed
    const race = candidate({
      file: 'src/other.js',
      category: 'bug',
      severity: 'issue',
      summary: 'Race on write',
    });
    expect((await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', leak.file)).code).toBe(0);
    expect(
      (
        await run(
          'record',
          'run-1',
          '--report',
          await write(
            'r2.json',
            report(2, 'B', { candidates: [race], decisions: [decision(leak, 'fixed')] }),
          ),
        )
      ).code,
    ).toBe(0);
    expect((await run('capture', 'run-1', '--input-sha', sha('C'), '--touched', 'src/pool.js')).code).toBe(0);
    const md = await write(
      'review.md',
      `## Findings\n- [reopened] ${LEAK.slice(0, 12)} :: the pool change undid the fix\n`,
    );
    const reopened = await run('record', 'run-1', '--findings-md', md, '--json');
    expect(reopened.code).toBe(0);
    expect(reopened.json).toMatchObject({
      status: 'open',
      changed: [{ id: LEAK, from: 'fixed', to: 'open' }],
    });
    const findings = await run('findings', 'run-1', '--json');
    const listed = (findings.json?.findings ?? []) as Array<{ id: string }>;
    const shown = listed.find((f) => f.id === LEAK);
    expect(shown).toMatchObject({ status: 'open', reopened: 1, roundsOpen: 2 });
    expect((await run('explain', 'run-1')).stdout).toContain(
      'round 3 reopened it (it had been fixed): the pool change undid the fix',
    );
    expect((await run('feedback', 'run-1')).stdout).toContain(
      'Reopened in round 3 (it had been fixed): the pool change undid the fix',
    );
  });
});
