import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'vitest';
import type { Candidate, RoundReport } from '../../src/index.js';
import { findingId } from '../../src/index.js';
import { type CliResult, cli } from '../support/cli.js';

/**
 * One run with a bit of everything, built through the real CLI into a real store: stages with a
 * failure and costs, a failed collection attempt, a rename, a withdrawal, a fix, a ruling and an
 * extension, ending blocked at round 3 of 3 with one blocking finding open. Text that looks like
 * markup or workflow syntax is in it on purpose.
 */

export const RUN_ID = 'pr-7';
const sha = (label: string) => label.padEnd(40, '0');

export const LEAK: Candidate = {
  file: 'src/service.js',
  line: 10,
  category: 'correctness',
  summary: 'Handle <b>not</b> closed & leaks, 100% of the time: on abort',
  severity: 'major',
  confirmed: true,
  evidence: 'abort mid-stream: lsof shows <script>alert(1)</script> one more socket',
};
export const STYLE: Candidate = {
  file: 'src/style.js',
  line: 2,
  category: 'style',
  summary: 'Inconsistent quotes',
  severity: 'minor',
  confirmed: true,
  evidence: 'mixed quote styles in one file',
};
export const STATUS_CHECK: Candidate = {
  file: 'src/api.js',
  line: 5,
  category: 'error-handling',
  summary: 'Unchecked HTTP status',
  severity: 'major',
  confirmed: true,
  evidence: 'a 500 is parsed as a body',
};
export const OFF_BY_ONE: Candidate = {
  file: 'src/service.js',
  line: 20,
  category: 'correctness',
  summary: 'Off by one in the retry loop',
  severity: 'major',
  confirmed: true,
  evidence: 'retries 4 times, not 3',
};

export const ids = {
  leak: findingId(LEAK),
  style: findingId(STYLE),
  statusCheck: findingId(STATUS_CHECK),
  offByOne: findingId(OFF_BY_ONE),
};

export type Scenario = Readonly<{
  dir: string;
  run: (...args: string[]) => Promise<CliResult>;
}>;

/** Build the run in `dir` (a fresh store); every step must succeed. */
export const buildScenario = async (dir: string): Promise<Scenario> => {
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const ok = async (...args: string[]) => {
    const r = await run(...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const file = async (name: string, value: unknown) => {
    const target = path.join(dir, name);
    await writeFile(target, typeof value === 'string' ? value : JSON.stringify(value));
    return target;
  };
  const report = (round: number, input: string, over: Partial<RoundReport>): RoundReport => ({
    runId: RUN_ID,
    round,
    inputSha: sha(input),
    completed: true,
    candidates: [],
    decisions: [],
    ...over,
  });
  const policy = await file('policy.json', {
    name: 'render-scenario',
    maxRounds: 2,
    severities: { major: { blocks: true }, minor: { blocks: false } },
    stages: ['planning'],
    budget: { usd: 5 },
  });
  await ok('open', RUN_ID, '--policy-file', policy, '--input-sha', sha('A'));
  await ok('stage', RUN_ID, 'planning', '--start');
  await ok(
    'stage',
    RUN_ID,
    'planning',
    '--fail',
    'the model timed out',
    '--cost',
    'usd=0.10',
    '--runner',
    'planner',
  );
  await ok('stage', RUN_ID, 'planning', '--start');
  await ok(
    'stage',
    RUN_ID,
    'planning',
    '--finish',
    '--output',
    await file('plan.json', '{"plan":"read service.js"}'),
    '--cost',
    'usd=0.25,tokens=1500',
    '--runner',
    'planner',
  );
  await ok(
    'record',
    RUN_ID,
    '--report',
    await file('r1.json', report(1, 'A', { candidates: [LEAK, STYLE, STATUS_CHECK, OFF_BY_ONE] })),
  );

  await ok(
    'capture',
    RUN_ID,
    '--input-sha',
    sha('B'),
    '--touched',
    'src/service.js',
    '--touched',
    'src/style.js',
    '--rename',
    'src/api.js=src/client.js',
  );
  await ok('stage', RUN_ID, 'planning', '--start');
  await ok(
    'stage',
    RUN_ID,
    'planning',
    '--finish',
    '--output',
    await file('plan2.json', '{"plan":"recheck"}'),
    '--cost',
    'usd=0.30',
    '--runner',
    'planner',
  );
  await ok(
    'record',
    RUN_ID,
    '--report',
    await file(
      'r2.json',
      report(2, 'B', {
        decisions: [
          { id: ids.leak, status: 'open', evidence: 'the line moved to 14; still leaks' },
          {
            id: ids.style,
            status: 'withdrawn',
            evidence: 'the formatter enforces quotes, a rule, not a review',
          },
          { id: ids.statusCheck, status: 'open', evidence: 'still unchecked after the rename' },
          { id: ids.offByOne, status: 'fixed', evidence: 'loop bound is < 3 now' },
        ],
      }),
    ),
  );
  // blocked at the cap: a person rules on one finding and extends the run by one round
  await ok(
    'rule',
    RUN_ID,
    ids.statusCheck.slice(0, 12),
    '--withdrawn',
    '--why',
    'the client retries on 5xx, checked by hand',
    '--by',
    'Ada Lovelace',
  );
  await ok(
    'extend',
    RUN_ID,
    '--rounds',
    '1',
    '--why',
    'the fix for the leak landed after the cap',
    '--by',
    'Grace Hopper',
  );

  await ok('capture', RUN_ID, '--input-sha', sha('C'), '--touched', 'src/service.js');
  // a collection attempt that fails: nothing is published where the driver waits
  const failed = await run(
    'record',
    RUN_ID,
    '--wait',
    path.join(dir, 'never-published.json'),
    '--timeout-ms',
    '1',
  );
  expect(failed.code, failed.stderr).toBe(3);
  await ok('stage', RUN_ID, 'planning', '--start');
  await ok(
    'stage',
    RUN_ID,
    'planning',
    '--finish',
    '--output',
    await file('plan3.json', '{"plan":"last look"}'),
    '--cost',
    'usd=0.40',
    '--runner',
    'opus-expert',
  );
  await ok(
    'record',
    RUN_ID,
    '--report',
    await file(
      'r3.json',
      report(3, 'C', {
        decisions: [{ id: ids.leak, status: 'open', evidence: 'the finally block never runs on abort' }],
      }),
    ),
  );
  return { dir, run };
};
