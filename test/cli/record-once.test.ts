import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DomainEvent } from '../../src/events/event.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// The real `evolve` and `parseReport`, wrapped so the test can count what the record path asks
// of them: each report is parsed once, and each new event passes `evolve` once.
const calls = vi.hoisted(() => ({ evolve: [] as string[], parseReport: 0 }));

vi.mock('../../src/projections/evolve.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/projections/evolve.js')>();
  return {
    ...real,
    evolve: (state: Parameters<typeof real.evolve>[0], event: DomainEvent) => {
      calls.evolve.push(event.type);
      return real.evolve(state, event);
    },
  };
});

vi.mock('../../src/events/report.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/events/report.js')>();
  return {
    ...real,
    parseReport: (input: unknown) => {
      calls.parseReport += 1;
      return real.parseReport(input);
    },
  };
});

const counted = (type: string) => calls.evolve.filter((t) => t === type).length;

const reset = () => {
  calls.evolve.length = 0;
  calls.parseReport = 0;
};

beforeEach(reset);

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
    reset();
    const recorded = await run('record', 'run-1', '--report', file, '--json');
    expect(recorded.code).toBe(0);
    expect(recorded.json.status).toBe('open');
    expect(calls.parseReport).toBe(1);
    expect(counted('round.recorded')).toBe(1);
  });

  it('record --wait: the published report is parsed once on arrival, and evolved once', async () => {
    const { run, file, inbox } = await opened();
    expect((await run('publish', inbox, '--report', file)).code).toBe(0);
    reset();
    const recorded = await run('record', 'run-1', '--wait', inbox, '--timeout-ms', '30000', '--json');
    expect(recorded.code).toBe(0);
    expect(calls.parseReport).toBe(1);
    expect(counted('round.recorded')).toBe(1);
  });

  it('contribute and record --merge: one parse, and each new event passes evolve once', async () => {
    const { run, file } = await opened();
    reset();
    expect((await run('contribute', 'run-1', '--expert', 'ada', '--report', file)).code).toBe(0);
    expect(calls.parseReport).toBe(1);
    expect(counted('contribution.recorded')).toBe(1);
    reset();
    expect((await run('record', 'run-1', '--merge', '--json')).code).toBe(0);
    expect(calls.parseReport).toBe(0);
    expect(counted('round.recorded')).toBe(1);
  });

  it('a refused report is still parsed once and evolved once, and the refusal names the rule', async () => {
    const { dir, run } = await opened();
    const wrong = path.join(dir, 'wrong.json');
    await writeFile(wrong, JSON.stringify(report(2, 'A')));
    reset();
    const refused = await run('record', 'run-1', '--report', wrong, '--json');
    expect(refused.code).toBe(1);
    expect((refused.json.error as { code: string }).code).toBe('wrong-round');
    expect(calls.parseReport).toBe(1);
    expect(counted('round.recorded')).toBe(1);
  });
});
