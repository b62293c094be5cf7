import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// What the record path asks of the real code, counted by V8 itself (precise coverage with call
// counts, through the inspector), with nothing replaced: how often `parseReport` ran, and how
// often `evolve` handed an event of each type to its rule. `evolve` is the only caller of those
// rules, so a rule's count is the number of times an event of its type passed `evolve`.
const COUNTED = {
  parseReport: 'src/events/report.ts',
  recordRound: 'src/projections/rules/round.ts',
  recordContribution: 'src/projections/rules/contribution.ts',
} as const;
type Counts = Record<keyof typeof COUNTED, number>;

type Coverage = {
  result: Array<{
    url: string;
    functions: Array<{ functionName: string; ranges: Array<{ count: number }> }>;
  }>;
};

/** Run `step` and count the calls of each COUNTED function while it ran. */
const counting = async <T>(step: () => Promise<T>): Promise<{ result: T; counts: Counts }> => {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    const result = await step();
    const coverage = (await session.post('Profiler.takePreciseCoverage')) as Coverage;
    const counts = { parseReport: 0, recordRound: 0, recordContribution: 0 };
    for (const [name, file] of Object.entries(COUNTED) as Array<[keyof Counts, string]>) {
      // V8 leaves out a script none of whose functions ran: its count stays 0 (each of these
      // functions is counted at least once in some test below, so a moved file would fail there)
      for (const script of coverage.result.filter((s) => s.url.endsWith(file)))
        for (const fn of script.functions)
          if (fn.functionName === name) counts[name] += fn.ranges[0]?.count ?? 0;
    }
    return { result, counts };
  } finally {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
  }
};

/** A store with run-1 opened and round 1 captured (input A); the report file and the inbox. */
const opened = async (...policy: string[]) => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const file = path.join(dir, 'r1.json');
  await writeFile(file, JSON.stringify(report(1, 'A', { candidates: [candidate()] })));
  expect((await run('open', 'run-1', '--input-sha', sha('A'), ...policy)).code).toBe(0);
  await mkdir(path.join(dir, 'inbox'));
  return { dir, run, file, inbox: path.join(dir, 'inbox', 'round.json') };
};

describe('the record path does each step once', () => {
  it('record --report: the report is parsed once and its round.recorded passes evolve once', async () => {
    const { run, file } = await opened();
    const { result: recorded, counts } = await counting(() =>
      run('record', 'run-1', '--report', file, '--json'),
    );
    expect(recorded.code).toBe(0);
    expect(recorded.json.status).toBe('open');
    expect(counts).toEqual({ parseReport: 1, recordRound: 1, recordContribution: 0 });
  });

  it('record --wait: the published report is parsed once on arrival, and evolved once', async () => {
    const { run, file, inbox } = await opened();
    expect((await run('publish', inbox, '--report', file)).code).toBe(0);
    const { result: recorded, counts } = await counting(() =>
      run('record', 'run-1', '--wait', inbox, '--timeout-ms', '30000', '--json'),
    );
    expect(recorded.code).toBe(0);
    expect(counts).toEqual({ parseReport: 1, recordRound: 1, recordContribution: 0 });
  });

  it('contribute and record --merge: one parse, and each new event passes evolve once', async () => {
    const { run, file } = await opened();
    const contributed = await counting(() => run('contribute', 'run-1', '--expert', 'ada', '--report', file));
    expect(contributed.result.code).toBe(0);
    expect(contributed.counts.parseReport).toBe(1);
    expect(contributed.counts.recordContribution).toBe(1);
    const merged = await counting(() => run('record', 'run-1', '--merge', '--json'));
    expect(merged.result.code).toBe(0);
    expect(merged.counts.parseReport).toBe(0);
    expect(merged.counts.recordRound).toBe(1);
  });

  it('a refused report is still parsed once and evolved once, and the refusal names the rule', async () => {
    const { dir, run } = await opened();
    const wrong = path.join(dir, 'wrong.json');
    await writeFile(wrong, JSON.stringify(report(2, 'A')));
    const { result: refused, counts } = await counting(() =>
      run('record', 'run-1', '--report', wrong, '--json'),
    );
    expect(refused.code).toBe(1);
    expect((refused.json.error as { code: string }).code).toBe('wrong-round');
    expect(counts).toEqual({ parseReport: 1, recordRound: 1, recordContribution: 0 });
  });
});
