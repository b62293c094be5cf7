import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const major = candidate();
const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as { code: string; message: string };

/** A store with a run under a budgeted policy (1 round for the person tests), and helpers. */
const setup = async (policy: Record<string, unknown> = {}) => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const file = async (name: string, value: unknown) => {
    const p = path.join(dir, name);
    await writeFile(p, typeof value === 'string' ? value : JSON.stringify(value));
    return p;
  };
  const policyFile = await file('policy.json', {
    name: 'budgeted',
    maxRounds: 2,
    severities: { major: { blocks: true } },
    budget: { usd: 1 },
    ...policy,
  });
  expect(
    (await run('open', 'r', '--policy-file', policyFile, '--consent', 'npm test', '--input-sha', sha('A')))
      .code,
  ).toBe(0);
  return { dir, run, file, log: path.join(dir, 'runs', 'r.jsonl') };
};

describe('the lifecycle from the command line', () => {
  it('record --end and --merge honour --expect-seq: refused when someone appended since, nothing written', async () => {
    const { run, log } = await setup();
    const before = await readFile(log);
    for (const how of [['--end', 'none', '--reason', 'nothing to review'], ['--merge']]) {
      const stale = await run('record', 'r', ...how, '--expect-seq', '1', '--json');
      expect([stale.code, errorOf(stale).code], how.join(' ')).toEqual([1, 'seq-mismatch']);
    }
    expect(await readFile(log)).toEqual(before);
    const ended = await run(
      'record',
      'r',
      '--end',
      'none',
      '--reason',
      'nothing to review',
      '--expect-seq',
      '2',
    );
    expect(ended.code).toBe(0);
  });

  it('stages start, fail, run again and finish; outputs are archived by hash and verify checks them', async () => {
    const { dir, run, file } = await setup();
    expect((await run('stage', 'r', 'planning', '--start', '--json')).json).toMatchObject({
      ok: true,
      round: 1,
      event: 'stage.started',
    });
    expect(
      (
        await run(
          'stage',
          'r',
          'planning',
          '--fail',
          'the model timed out',
          '--cost',
          'usd=0.10',
          '--runner',
          'planner',
        )
      ).code,
    ).toBe(0);
    expect((await run('next', 'r', '--json')).json).toMatchObject({
      action: 'run-stage',
      stage: 'planning',
      attempt: 2,
    });
    await run('stage', 'r', 'planning', '--start');
    const plan = await file('plan.json', '{"plan":"read service.js first"}');
    const finished = await run(
      'stage',
      'r',
      'planning',
      '--finish',
      '--output',
      plan,
      '--cost',
      'usd=0.20,tokens=1500',
      '--runner',
      'planner',
      '--json',
    );
    const outputSha = finished.json.outputSha as string;
    expect(await readFile(path.join(dir, 'runs', 'r', 'objects', outputSha), 'utf8')).toBe(
      '{"plan":"read service.js first"}',
    );
    expect((await run('verify', 'r', '--json')).json).toMatchObject({
      ok: true,
      runs: [{ intact: true, objects: [] }],
    });
    expect((await run('stage', 'r', 'planning', '--start', '--json')).json).toMatchObject({
      ok: false,
      error: { code: 'stage-repeated' },
    });
    const cost = await run('cost', 'r', '--json');
    expect(cost.json).toMatchObject({
      spent: { usd: expect.closeTo(0.3, 5), tokens: 1500 },
      remaining: { usd: expect.closeTo(0.7, 5) },
      byRunner: [{ runner: 'planner' }],
    });
    await rm(path.join(dir, 'runs', 'r', 'objects', outputSha));
    const missing = await run('verify', 'r', '--json');
    expect([missing.code, errorOf(missing).code]).toEqual([1, 'integrity']);
    expect(errorOf(missing).message).toContain(`archived output ${outputSha} is missing`);
  });

  it('after a crash mid-stage and mid-append, next says which stage to run again', async () => {
    const { run, log } = await setup();
    await run('stage', 'r', 'planning', '--start');
    // the driver dies while appending: half a line, never acknowledged
    await writeFile(log, Buffer.concat([await readFile(log), Buffer.from('{"seq":4,"type":"stage.fini')]));
    const next = await run('next', 'r', '--json');
    expect(next.json).toMatchObject({
      ok: true,
      action: 'run-stage',
      round: 1,
      stage: 'planning',
      resume: true,
    });
    expect(String(next.json.why)).toMatch(/started but never finished/);
  });

  it('may answers without writing; consent and the budget are enforced', async () => {
    const { run, log } = await setup();
    const before = await readFile(log);
    expect((await run('may', 'r', '--stage', 'planning', '--cost', 'usd=0.9', '--json')).json).toMatchObject({
      ok: true,
      allowed: true,
    });
    const over = await run('may', 'r', '--stage', 'planning', '--cost', 'usd=1.5', '--json');
    // not allowed: exit 1, as test and grep -q answer, and still its one answer on stdout
    expect(over.code).toBe(1);
    expect(over.json).toMatchObject({ ok: true, allowed: false, rejection: { code: 'over-budget' } });
    const consent = await run('stage', 'r', 'planning', '--start', '--command', 'rm -rf /', '--json');
    expect([consent.code, errorOf(consent).code]).toEqual([1, 'no-consent']);
    expect(await readFile(log)).toEqual(before);
    expect((await run('stage', 'r', 'planning', '--start', '--command', 'npm test')).code).toBe(0);
  });

  it('a round ends ci_failed or none only with its reason; a report may be recorded partial', async () => {
    const { run, file } = await setup({ maxRounds: 3 });
    expect((await run('record', 'r', '--end', 'ci_failed')).code).toBe(2);
    const ci = await run('record', 'r', '--end', 'ci_failed', '--reason', 'npm test: 3 failures', '--json');
    expect(ci.json).toMatchObject({ ok: true, round: 1, result: 'ci_failed', status: 'open' });
    await run('capture', 'r', '--input-sha', sha('B'));
    const partial = await run(
      'record',
      'r',
      '--report',
      await file('r2.json', report(2, 'B', { runId: 'r' })),
      '--partial',
      '--json',
    );
    expect(partial.json).toMatchObject({ ok: true, round: 2, status: 'open' });
    const why = await run('explain', 'r');
    expect(why.stdout).toContain('round 1 ended ci_failed: npm test: 3 failures');
    expect(why.stdout).toContain('round 2 ended partial');
    const replay = await run('replay', 'r');
    expect(replay.stdout).toContain('round ended ci_failed: npm test: 3 failures');
  });

  it('rulings and extensions are refused before the cap, need a name and a reason, and are recorded after it', async () => {
    const { run, file, log } = await setup({ maxRounds: 1 });
    await run(
      'record',
      'r',
      '--report',
      await file('r1.json', report(1, 'A', { runId: 'r', candidates: [major] })),
    );
    // the run is blocked now; before that, a ruling is refused (tested on a second run below)
    const unsigned = await cli(
      [
        '--dir',
        path.dirname(path.dirname(log)),
        'rule',
        'r',
        '827f9ded38b8',
        '--withdrawn',
        '--why',
        'accepted',
        '--json',
      ],
      {
        env: { CLEARANCE_ACTOR: 'ci-bot' },
      },
    );
    expect([unsigned.code, errorOf(unsigned).code]).toEqual([2, 'usage']);
    expect(errorOf(unsigned).message).toMatch(/name yourself with --by NAME/);
    expect((await run('rule', 'r', '827f9ded38b8', '--withdrawn', '--by', 'Ada')).code).toBe(2);
    const ruled = await run(
      'rule',
      'r',
      '827f9ded38b8',
      '--withdrawn',
      '--why',
      'the pool closes it',
      '--by',
      'Ada Lovelace',
      '--json',
    );
    expect(ruled.json).toMatchObject({
      ok: true,
      findingStatus: 'withdrawn',
      by: 'Ada Lovelace',
      status: 'converged',
      convergedBy: 'Ada Lovelace',
    });
    expect((await run('explain', 'r')).stdout).toMatch(
      /^converged by ruling of Ada Lovelace after round 1: the pool closes it/,
    );
    expect((await run('replay', 'r')).stdout).toContain('converged by ruling of Ada Lovelace');
    expect((await run('replay', 'r', '--json')).json.events).toContainEqual(
      expect.objectContaining({ type: 'finding.ruled', by: 'Ada Lovelace', convergedBy: 'Ada Lovelace' }),
    );

    const second = await setup({ maxRounds: 1 });
    await second.run(
      'record',
      'r',
      '--report',
      await second.file('r1.json', report(1, 'A', { runId: 'r', candidates: [major] })),
    );
    const extended = await second.run(
      'extend',
      'r',
      '--rounds',
      '1',
      '--why',
      'the fix landed late',
      '--by',
      'Grace Hopper',
      '--json',
    );
    expect(extended.json).toMatchObject({ ok: true, maxRounds: 2, status: 'open', by: 'Grace Hopper' });
    const before = await readFile(second.log);
    const early = await second.run(
      'extend',
      'r',
      '--rounds',
      '1',
      '--why',
      'again',
      '--by',
      'Grace Hopper',
      '--json',
    );
    expect([early.code, errorOf(early).code]).toEqual([1, 'not-blocked']);
    const earlyRule = await second.run(
      'rule',
      'r',
      '827f9ded38b8',
      '--fixed',
      '--why',
      'w',
      '--by',
      'Grace Hopper',
      '--json',
    );
    expect([earlyRule.code, errorOf(earlyRule).code]).toEqual([1, 'not-blocked']);
    expect(await readFile(second.log)).toEqual(before);
  });

  it('reproductions lists the commands a re-review re-runs', async () => {
    const { run, file } = await setup();
    const repro = { command: 'npm test -- service', expected: 'the leak test fails' };
    await run(
      'record',
      'r',
      '--report',
      await file('r1.json', report(1, 'A', { runId: 'r', candidates: [{ ...major, reproduction: repro }] })),
    );
    const list = await run('reproductions', 'r', '--json');
    expect(list.json).toMatchObject({
      ok: true,
      round: 1,
      reproductions: [{ status: 'open', command: 'npm test -- service', expected: 'the leak test fails' }],
    });
  });

  it('a negative cost is refused by the cost rule, invalid-cost (exit 1), whatever the flag; the log is unchanged', async () => {
    const { run, log } = await setup();
    const before = await readFile(log);
    const may = await run('may', 'r', '--stage', 'planning', '--cost', 'tokens=-5', '--json');
    expect(may.json).toMatchObject({ allowed: false, rejection: { code: 'invalid-cost' } });
    const start = await run('stage', 'r', 'planning', '--start', '--estimate', 'usd=-1', '--json');
    expect([start.code, (start.json.error as { code: string }).code]).toEqual([1, 'invalid-cost']);
    expect(await readFile(log)).toEqual(before);
    expect((await run('stage', 'r', 'planning', '--start')).code).toBe(0);
    const started = await readFile(log);
    const finish = await run('stage', 'r', 'planning', '--fail', 'x', '--cost', 'seconds=-2', '--json');
    expect([finish.code, (finish.json.error as { code: string }).code]).toEqual([1, 'invalid-cost']);
    expect(await readFile(log)).toEqual(started);
    const notANumber = await run('stage', 'r', 'planning', '--fail', 'x', '--cost', 'seconds=soon', '--json');
    expect(notANumber.code).toBe(2);
    expect(await readFile(log)).toEqual(started);
  });
});
