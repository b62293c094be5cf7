import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../src/events/policy.js';
import { append, archiveOutput, fileStore, openRun, operations } from '../../src/index.js';
import { report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

// Tokens are counted in whole numbers: `tokens: 1.5` (or a negative or non-finite count) is refused
// where a cost comes in, naming the field and the fix, and nothing is written. usd and seconds may
// be fractional. The fold does not hold a log to it: a log written before may hold 1.5 tokens.

type Refusal = { code: string; message: string; details?: { path?: Array<string | number> } };
const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as Refusal;

const setup = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args, '--json']);
  const file = async (name: string, value: unknown) => {
    const at = path.join(dir, '..', `${path.basename(dir)}-${name}`);
    await writeFile(at, JSON.stringify(value));
    return at;
  };
  const policy = await file('policy.json', {
    name: 'budgeted',
    maxRounds: 2,
    severities: { major: { blocks: true } },
    budget: { tokens: 100000, usd: 1.5 },
  });
  expect((await run('open', 'r', '--policy-file', policy, '--input-sha', sha('A'))).code).toBe(0);
  return { dir, run, file };
};

/** Exit 1 with `code` at `at`, the message naming the field and the fix, and the store unchanged. */
const expectRefused = async (
  dir: string,
  attempt: () => Promise<{ code: number; json: Record<string, unknown> }>,
  code: string,
  at: Array<string | number>,
  field: string,
) => {
  const before = await snapshot(dir);
  const result = await attempt();
  expect([result.code, errorOf(result).code]).toEqual([1, code]);
  expect(errorOf(result).details?.path).toEqual(at);
  expect(errorOf(result).message).toContain(`${field}: tokens are counted in whole numbers >= 0, got`);
  expect(await snapshot(dir)).toEqual(before);
  return errorOf(result).message;
};

describe('a token count is a whole number, at every door a cost comes in', () => {
  it('record refuses a report whose cost.tokens is 1.5 or -1 (invalid-cost), and accepts 2 tokens and $0.04', async () => {
    const { dir, run, file } = await setup();
    const half = await file('half.json', report(1, 'A', { runId: 'r', cost: { tokens: 1.5 } }));
    const message = await expectRefused(
      dir,
      () => run('record', 'r', '--report', half),
      'invalid-cost',
      ['cost', 'tokens'],
      'cost.tokens',
    );
    expect(message).toContain('got 1.5 (round it to 2)');
    const negative = await file('negative.json', report(1, 'A', { runId: 'r', cost: { tokens: -1 } }));
    await expectRefused(
      dir,
      () => run('record', 'r', '--report', negative),
      'invalid-cost',
      ['cost', 'tokens'],
      'cost.tokens',
    );
    const whole = await file(
      'whole.json',
      report(1, 'A', { runId: 'r', cost: { tokens: 2, usd: 0.04, seconds: 1.5 } }),
    );
    expect((await run('record', 'r', '--report', whole)).code).toBe(0);
  });

  it('stage --start --estimate, --finish --cost and --fail --cost refuse fractional tokens, and may answers no', async () => {
    const { dir, run, file } = await setup();
    await expectRefused(
      dir,
      () => run('stage', 'r', 'planning', '--start', '--estimate', 'tokens=0.5'),
      'invalid-cost',
      ['estimate', 'tokens'],
      'estimate.tokens',
    );
    await expectRefused(
      dir,
      () => run('stage', 'r', 'planning', '--start', '--estimate', 'tokens=Infinity'),
      'invalid-cost',
      ['estimate', 'tokens'],
      'estimate.tokens',
    );
    const may = await run('may', 'r', '--stage', 'planning', '--cost', 'tokens=12.25');
    expect(may.code).toBe(1);
    expect(may.json).toMatchObject({ allowed: false, rejection: { code: 'invalid-cost' } });
    expect((may.json.rejection as { message: string }).message).toContain(
      'estimate.tokens: tokens are counted in whole numbers >= 0, got 12.25 (round it to 12)',
    );
    expect((await run('stage', 'r', 'planning', '--start', '--estimate', 'tokens=20,usd=0.25')).code).toBe(0);
    const output = await file('plan.json', { plan: 1 });
    await expectRefused(
      dir,
      () => run('stage', 'r', 'planning', '--finish', '--output', output, '--cost', 'tokens=18.5'),
      'invalid-cost',
      ['cost', 'tokens'],
      'cost.tokens',
    );
    await expectRefused(
      dir,
      () => run('stage', 'r', 'planning', '--fail', 'flaky', '--cost', 'tokens=3.75,usd=0.1'),
      'invalid-cost',
      ['cost', 'tokens'],
      'cost.tokens',
    );
    const finished = await run(
      'stage',
      'r',
      'planning',
      '--finish',
      '--output',
      output,
      '--cost',
      'tokens=18,usd=0.27,seconds=9.5',
    );
    expect(finished.code).toBe(0);
  });

  it('open refuses a policy file whose budget.tokens is 1000.5 (invalid-policy), and no run is created', async () => {
    const dir = await tempDir();
    const policy = path.join(dir, '..', `${path.basename(dir)}-policy.json`);
    await writeFile(
      policy,
      JSON.stringify({
        name: 'p',
        maxRounds: 2,
        severities: { major: { blocks: true } },
        budget: { tokens: 1000.5 },
      }),
    );
    const before = await snapshot(dir);
    const refused = await cli(['--dir', dir, 'open', 'r', '--policy-file', policy, '--json']);
    expect([refused.code, errorOf(refused).code]).toEqual([1, 'invalid-policy']);
    expect(errorOf(refused).message).toContain(
      'budget.tokens: tokens are counted in whole numbers >= 0, got 1000.5 (round it to 1001)',
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it('operations.open refuses a library caller’s policy with a fractional token budget, writing nothing', async () => {
    const dir = await tempDir();
    const before = await snapshot(dir);
    const policy = { ...PRESETS.default, budget: { tokens: 0.5 } };
    const error = await operations.open({ store: fileStore(dir), by: 'ada' }, { runId: 'r', policy }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; details: { path: unknown } },
    );
    expect(error).toMatchObject({
      code: 'invalid-policy',
      details: { path: ['policy', 'budget', 'tokens'] },
    });
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('a log that already holds a fractional token count replays as it always did', () => {
  it('a run written below the door with a budget of 1000.5 tokens and 1.5 spent reads, verifies and replays', async () => {
    const dir = await tempDir();
    const policy = { ...PRESETS.default, budget: { tokens: 1000.5 } };
    // the store's own append checks each event with the fold's rules only, as a log written
    // before this door check was: nothing in the fold refuses a fractional token count
    await openRun(fileStore(dir), { runId: 'r', policy, subject: {}, consent: { by: 'ada' } }, { by: 'ada' });
    const outputSha = await archiveOutput(dir, 'r', new TextEncoder().encode('the plan'));
    await append(
      dir,
      'r',
      [
        { type: 'revision.captured', data: { round: 1, inputSha: sha('A'), touchedFiles: [], renames: [] } },
        { type: 'stage.started', data: { round: 1, stage: 'planning', commands: [] } },
        {
          type: 'stage.finished',
          data: { round: 1, stage: 'planning', outputSha, cost: { tokens: 1.5 }, runner: 'p' },
        },
      ],
      { by: 'ada' },
    );
    const cost = await cli(['--dir', dir, 'cost', 'r', '--json']);
    expect(cost.code).toBe(0);
    expect(cost.json).toMatchObject({ spent: { tokens: 1.5 }, budget: { tokens: 1000.5 } });
    expect((await cli(['--dir', dir, 'verify', 'r'])).code).toBe(0);
    expect((await cli(['--dir', dir, 'replay', 'r', '--json'])).code).toBe(0);
  });
});
