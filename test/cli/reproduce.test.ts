import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

const repro = candidate({
  reproduction: { command: 'npm test -- service', expected: 'fails with EMFILE' },
});
const ID = findingId(repro);

/** run-1 under the default policy without stages, round 1 recorded with one reproducible finding. */
const afterRound1 = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value));
    return at;
  };
  const policy = await write('policy.json', {
    name: 'no-stages',
    maxRounds: 4,
    severities: { major: { blocks: true } },
    stages: [],
  });
  await run('open', 'run-1', '--policy-file', policy, '--input-sha', sha('A'));
  const r1 = await run(
    'record',
    'run-1',
    '--report',
    await write('r1.json', report(1, 'A', { candidates: [repro] })),
  );
  expect(r1.code).toBe(0);
  const log = path.join(dir, 'runs', 'run-1.jsonl');
  return { dir, run, write, log };
};

describe('clearance reproduce: a re-review re-runs the reproductions first', () => {
  it('capture, next says rerun-reproductions, still fails refuses fixed (log unchanged), a new input no longer fails, fixed is accepted', async () => {
    const { run, write, log } = await afterRound1();
    await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', repro.file);

    const next = await run('next', 'run-1', '--json');
    expect(next.json).toMatchObject({
      action: 'rerun-reproductions',
      round: 2,
      inputSha: sha('B'),
      reproductions: [{ findingId: ID, command: 'npm test -- service', expected: 'fails with EMFILE' }],
    });
    expect((await run('next', 'run-1')).stdout).toContain(
      `${ID.slice(0, 12)} src/service.js:10: $ npm test -- service`,
    );

    const output = await write('repro.txt', 'Error: EMFILE, too many open files\n');
    const failing = await run(
      'reproduce',
      'run-1',
      ID.slice(0, 8),
      '--still-fails',
      '--output',
      output,
      '--json',
    );
    expect(failing.code).toBe(0);
    expect(failing.json).toMatchObject({
      round: 2,
      inputSha: sha('B'),
      findingId: ID,
      outcome: 'still-fails',
      alreadyRecorded: false,
      pending: 0,
    });
    const outputSha = failing.json.outputSha as string;
    expect(await readFile(path.join(path.dirname(log), 'run-1', 'objects', outputSha), 'utf8')).toBe(
      'Error: EMFILE, too many open files\n',
    );
    expect((await run('next', 'run-1', '--json')).json).toMatchObject({ action: 'wait-report', round: 2 });

    const before = await readFile(log);
    const fixed = { id: ID, status: 'fixed' as const, evidence: 'closed in a finally block' };
    const refused = await run(
      'record',
      'run-1',
      '--report',
      await write('r2.json', report(2, 'B', { decisions: [fixed] })),
      '--json',
    );
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, error: { code: 'reproduction-still-fails' } });
    expect(await readFile(log)).toEqual(before);

    const feedback = await run('feedback', 'run-1');
    expect(feedback.stdout).toContain('still fails: a `fixed` decision on it is refused for this input');

    await run('capture', 'run-1', '--input-sha', sha('C'), '--touched', repro.file);
    expect((await run('next', 'run-1', '--json')).json).toMatchObject({ action: 'rerun-reproductions' });
    const gone = await run('reproduce', 'run-1', ID, '--no-longer-fails', '--json');
    expect(gone.json).toMatchObject({
      round: 2,
      inputSha: sha('C'),
      outcome: 'no-longer-fails',
      outputSha: null,
    });
    const accepted = await run(
      'record',
      'run-1',
      '--report',
      await write('r2c.json', report(2, 'C', { decisions: [fixed] })),
      '--json',
    );
    expect(accepted.code).toBe(0);
    expect(accepted.json).toMatchObject({ round: 2, status: 'converged' });

    const explain = await run('explain', 'run-1');
    expect(explain.stdout).toContain(
      `${ID.slice(0, 12)} reproduction re-run on round 2's input ${sha('B').slice(0, 12)}: still fails`,
    );
    expect(explain.stdout).toContain(
      `${ID.slice(0, 12)} reproduction re-run on round 2's input ${sha('C').slice(0, 12)}: no longer fails`,
    );
    const replay = await run('replay', 'run-1');
    expect(replay.stdout).toContain(
      `reproduction of ${ID.slice(0, 12)} re-run on ${sha('C').slice(0, 12)}: no longer fails`,
    );
    expect((await run('verify', 'run-1', '--json')).code).toBe(0);
  });

  it('the same outcome again is already recorded (exit 0); the other outcome is refused, the log unchanged', async () => {
    const { run, log } = await afterRound1();
    await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', repro.file);
    expect((await run('reproduce', 'run-1', ID, '--still-fails')).code).toBe(0);
    const before = await readFile(log);
    const again = await run('reproduce', 'run-1', ID, '--still-fails', '--json');
    expect(again.code).toBe(0);
    expect(again.json).toMatchObject({ alreadyRecorded: true, seq: null, findingId: ID });
    expect((await run('reproduce', 'run-1', ID, '--still-fails')).stdout).toMatch(/^already recorded: /);
    const other = await run('reproduce', 'run-1', ID, '--no-longer-fails', '--json');
    expect(other.code).toBe(1);
    expect(other.json).toMatchObject({ error: { code: 'duplicate-reproduction' } });
    expect(await readFile(log)).toEqual(before);
  });

  it('needs exactly one of --still-fails and --no-longer-fails, a capture, and a finding with a reproduction', async () => {
    const { run, log } = await afterRound1();
    const before = await readFile(log);
    const neither = await run('reproduce', 'run-1', ID, '--json');
    expect([neither.code, (neither.json.error as { message: string }).message]).toEqual([
      2,
      'reproduce needs exactly one of --still-fails or --no-longer-fails',
    ]);
    expect((await run('reproduce', 'run-1', ID, '--still-fails', '--no-longer-fails')).code).toBe(2);
    const early = await run('reproduce', 'run-1', ID, '--still-fails', '--json');
    expect([early.code, (early.json.error as { code: string }).code]).toEqual([1, 'no-revision']);
    expect(await readFile(log)).toEqual(before);
    await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', repro.file);
    const captured = await readFile(log);
    const unknown = await run('reproduce', 'run-1', 'deadbeefdeadbeef', '--still-fails', '--json');
    expect([unknown.code, (unknown.json.error as { code: string }).code]).toEqual([1, 'unknown-finding']);
    expect(await readFile(log)).toEqual(captured);
  });

  it('an output for a run that does not exist is refused run-missing before anything is archived (reproduce and stage --finish)', async () => {
    const { dir, run, write } = await afterRound1();
    const output = await write('output.txt', 'still failing: EMFILE\n');
    const before = await snapshot(dir);
    const reproduced = await run(
      'reproduce',
      'run-2',
      ID.slice(0, 12),
      '--still-fails',
      '--output',
      output,
      '--json',
    );
    expect([reproduced.code, (reproduced.json.error as { code: string }).code]).toEqual([1, 'run-missing']);
    const staged = await run(
      'stage',
      'run-2',
      'review',
      '--finish',
      '--output',
      output,
      '--runner',
      'ci',
      '--json',
    );
    expect([staged.code, (staged.json.error as { code: string }).code]).toEqual([1, 'run-missing']);
    expect(await snapshot(dir)).toEqual(before);
  });
});
