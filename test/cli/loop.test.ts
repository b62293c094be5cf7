import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, decision, nit, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const major = candidate();

/** A store with run-1 opened and round 1 captured, plus a place for report files. */
const setup = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const reportFile = async (name: string, value: unknown) => {
    const file = path.join(dir, name);
    await writeFile(file, JSON.stringify(value));
    return file;
  };
  expect((await run('open', 'run-1', '--input-sha', sha('A'))).code).toBe(0);
  return { dir, run, reportFile, log: path.join(dir, 'runs', 'run-1.jsonl') };
};

describe('driving a loop from the command line', () => {
  it('open, record, capture, a refused record that changes nothing, and convergence', async () => {
    const { run, reportFile, log } = await setup();
    const r1 = await run(
      'record',
      'run-1',
      '--report',
      await reportFile('r1.json', report(1, 'A', { candidates: [major, nit(1)] })),
      '--json',
    );
    expect(r1.code).toBe(0);
    expect(r1.json).toMatchObject({ ok: true, runId: 'run-1', round: 1, status: 'open', seq: 3 });
    expect(r1.json.opened).toHaveLength(2);

    const cap = await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', major.file, '--json');
    expect(cap.json).toMatchObject({ ok: true, round: 2, capture: { inputSha: sha('B') }, seq: 4 });

    const before = await readFile(log);
    const refused = await run('record', 'run-1', '--report', await reportFile('r2-bad.json', report(2, 'B')));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(
      /^error: round 2 report has no decision for finding 827f9ded38b8 \(src\/service\.js\): every open finding in a touched file needs one \[missing-decision\]/,
    );
    const refusedJson = await run(
      'record',
      'run-1',
      '--report',
      await reportFile('r2-bad.json', report(2, 'B')),
      '--json',
    );
    expect(refusedJson.json).toEqual({
      ok: false,
      error: {
        code: 'missing-decision',
        message: expect.stringMatching(/no decision for finding/),
        details: { path: ['decisions'] },
        // what to do instead, as data: record the round again, its report deciding the finding
        next: { action: 'record', runId: 'run-1' },
      },
    });
    expect(await readFile(log)).toEqual(before);

    const fixed = report(2, 'B', { decisions: [decision(major, 'fixed')] });
    const r2 = await run('record', 'run-1', '--report', '-', '--json');
    expect(r2.code).toBe(1); // empty stdin is not JSON
    const r2ok = await cli(['--dir', path.dirname(path.dirname(log)), 'record', 'run-1', '--report', '-'], {
      input: JSON.stringify(fixed),
    });
    expect(r2ok.code).toBe(0);
    expect(r2ok.stdout).toMatch(/round 2 of run-1 recorded: converged/);

    const status = await run('status', 'run-1', '--json');
    expect(status.json).toMatchObject({
      ok: true,
      status: 'converged',
      round: 2,
      maxRounds: 4,
      inputSha: sha('B'),
    });
    expect((status.json.findings as Array<Record<string, unknown>>)[0]).toMatchObject({
      id: expect.stringMatching(/^827f9ded/),
      file: 'src/service.js',
      line: 10,
      severity: 'major',
      status: 'fixed',
      blocking: true,
    });
  });

  it('status, findings, explain, replay and verify read the run, in text and JSON', async () => {
    const { run, reportFile } = await setup();
    await run(
      'record',
      'run-1',
      '--report',
      await reportFile('r1.json', report(1, 'A', { candidates: [major, nit(1)] })),
    );
    const text = await run('status', 'run-1');
    expect(text.stdout).toMatch(/run run-1: open after round 1 of 4 \(policy default, seq 3\)/);
    expect(text.stdout).toMatch(/827f9ded38b8 major {2}src\/service\.js:10 {2}Missing close/);
    const open = await run('findings', 'run-1', '--status', 'open', '--json');
    expect((open.json.findings as unknown[]).length).toBe(2);
    const fixed = await run('findings', 'run-1', '--status', 'fixed');
    expect(fixed.stdout).toMatch(/no fixed findings in run-1/);
    expect((await run('findings', 'run-1', '--status', 'closed')).code).toBe(2);
    const why = await run('explain', 'run-1');
    expect(why.stdout).toMatch(/open after round 1 of 4: 1 blocking finding is open, so round 2 is needed/);
    const replay = await run('replay', 'run-1', '--json');
    expect((replay.json.events as Array<{ type: string; by: string }>).map((e) => [e.type, e.by])).toEqual([
      ['run.opened', 'tester'],
      ['revision.captured', 'tester'],
      ['round.recorded', 'tester'],
    ]);
    const verify = await run('verify', '--json');
    expect(verify.json).toMatchObject({
      ok: true,
      runs: [{ runId: 'run-1', intact: true, events: 3, lastSeq: 3, head: 'ok' }],
    });
    const listed = await run('status', '--json');
    expect(listed.json.runs).toEqual([{ runId: 'run-1', status: 'open', round: 1, maxRounds: 4 }]);
  });

  it('--by and CLEARANCE_ACTOR name who acted; CLEARANCE_DIR names the store', async () => {
    const dir = await tempDir();
    await cli(['open', 'run-1', '--by', 'alice'], { env: { CLEARANCE_DIR: dir } });
    await cli(['capture', 'run-1', '--input-sha', 'abc'], {
      env: { CLEARANCE_DIR: dir, CLEARANCE_ACTOR: 'ci-bot' },
    });
    const replay = await cli(['--dir', dir, 'replay', 'run-1', '--json']);
    expect((replay.json.events as Array<{ by: string }>).map((e) => e.by)).toEqual(['alice', 'ci-bot']);
  });
});
