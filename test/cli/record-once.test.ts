import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId, type RoundReport } from '../../src/index.js';
import { type LogRead, observeLogReads } from '../../src/store/catch-up.js';
import { readCheckpointHeader } from '../../src/store/checkpoint.js';
import { candidate, decision, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { linesOf, makeRepo } from '../support/git-repo.js';
import { tempDir } from '../support/tmp.js';

// What the record path asks of the real code, counted by V8 itself (precise coverage with call
// counts, through the inspector), with nothing replaced: how often `parseReport` ran, and how
// often `evolve` handed an event of each type to its rule. `evolve` is the only caller of those
// rules, so a rule's count is the number of times an event of its type passed `evolve`.
const COUNTED = {
  parseReport: 'src/events/round-report.ts',
  onRoundRecorded: 'src/projections/rules/round.ts',
  onContributionRecorded: 'src/projections/rules/contribution.ts',
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
    const counts = { parseReport: 0, onRoundRecorded: 0, onContributionRecorded: 0 };
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
    expect(counts).toEqual({ parseReport: 1, onRoundRecorded: 1, onContributionRecorded: 0 });
  });

  it('record --wait: the published report is parsed once on arrival, and evolved once', async () => {
    const { run, file, inbox } = await opened();
    expect((await run('publish', inbox, '--report', file)).code).toBe(0);
    const { result: recorded, counts } = await counting(() =>
      run('record', 'run-1', '--wait', inbox, '--timeout-ms', '30000', '--json'),
    );
    expect(recorded.code).toBe(0);
    expect(counts).toEqual({ parseReport: 1, onRoundRecorded: 1, onContributionRecorded: 0 });
  });

  it('contribute and record --merge: one parse, and each new event passes evolve once', async () => {
    const { run, file } = await opened();
    const contributed = await counting(() =>
      run('contribute', 'run-1', '--reviewer', 'ada', '--report', file),
    );
    expect(contributed.result.code).toBe(0);
    expect(contributed.counts.parseReport).toBe(1);
    expect(contributed.counts.onContributionRecorded).toBe(1);
    const merged = await counting(() => run('record', 'run-1', '--merge', '--json'));
    expect(merged.result.code).toBe(0);
    expect(merged.counts.parseReport).toBe(0);
    expect(merged.counts.onRoundRecorded).toBe(1);
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
    expect(counts).toEqual({ parseReport: 1, onRoundRecorded: 1, onContributionRecorded: 0 });
  });
});

// Every read before the lock is a hint, read the way `status` reads: from the run's checkpoint,
// when it still matches the log, and then only the bytes after its start are read again (its last
// line, to check its hash). The store hands every read of a log's bytes to `observeLogReads` (a
// test seam: a read's position and length), so a test sees each byte a command reads of the log.
// The in-process CLI forgets the checkpoints it holds in memory before each command, as a fresh
// process would: a command can only start from the checkpoint on disk.

const REPRO = candidate({
  file: 'src/service.js',
  line: 2,
  reproduction: { command: 'npm test -- service', expected: 'fails with EMFILE' },
});
const FINDING = findingId(REPRO);

/** Run `step` and keep every read of a log's bytes it made. */
const readsDuring = async <T>(step: () => Promise<T>): Promise<{ result: T; reads: LogRead[] }> => {
  const reads: LogRead[] = [];
  const stop = observeLogReads((r) => reads.push(r));
  try {
    return { result: await step(), reads };
  } finally {
    stop();
  }
};

/**
 * run-1 over a real repository under the default policy, three rounds recorded (one finding,
 * kept open by a decision in rounds 2 and 3) and round 4 captured from git: a log of 8 lines
 * with its checkpoint on disk at its last line, as the capture's append left it.
 */
const afterThreeRounds = async () => {
  const repo = makeRepo();
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const edit = (round: number) => {
    repo.write('src/service.js', linesOf(`round ${round}`, 12));
    repo.commitAll(`round ${round}`);
  };
  const file = async (name: string, content: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, typeof content === 'string' ? content : JSON.stringify(content));
    return at;
  };
  /** the next round's report, bound to what status says was captured for it */
  const nextReport = async (over: Partial<RoundReport> = {}) => {
    const status = await run('status', 'run-1', '--json');
    return report((status.json.round as number) + 1, 'x', {
      inputSha: status.json.inputSha as string,
      ...over,
    });
  };
  edit(1);
  expect((await run('open', 'run-1', '--repo', repo.dir)).code).toBe(0);
  const r1 = await run(
    'record',
    'run-1',
    '--report',
    await file('r1.json', await nextReport({ candidates: [REPRO] })),
  );
  expect(r1.code, r1.stderr).toBe(0);
  for (const round of [2, 3, 4]) {
    edit(round);
    expect((await run('capture', 'run-1')).code).toBe(0);
    if (round === 4) break;
    const keep = await nextReport({ decisions: [decision(FINDING, 'open', 'still leaks')] });
    const recorded = await run('record', 'run-1', '--report', await file(`r${round}.json`, keep));
    expect(recorded.code, recorded.stderr).toBe(0);
  }
  const log = path.join(dir, 'runs', 'run-1.jsonl');
  const header = readCheckpointHeader(path.join(dir, 'runs', 'run-1.fold'));
  const size = (await stat(log)).size;
  // the checkpoint vouches for the log to its last line; what a command may read again is the line
  // its state was folded to and the few after it (the state is written again once they grow)
  expect(header).toMatchObject({ seq: 8, size });
  const lineStart = header?.state.lineStart ?? 0;
  expect(lineStart).toBeGreaterThan(0);
  // the log's last line, which an append reads once more just before it writes
  const lastLineStart = header?.lineStart ?? 0;
  return {
    repo,
    dir,
    run,
    file,
    edit,
    nextReport,
    log,
    lineStart,
    lastLine: size - lineStart,
    lastLineStart,
  };
};

type Scenario = Awaited<ReturnType<typeof afterThreeRounds>>;

/** Round 4's report, keeping the finding open: what the reviewer hands in for the run's next round. */
const round4 = async (s: Scenario, name: string) =>
  s.file(name, await s.nextReport({ decisions: [decision(FINDING, 'open', 'still leaks')] }));

/**
 * Each command (its arguments prepared beforehand, so only the command itself is observed), its
 * exit status, and how many times it reads the log's last line: the hint read before the lock,
 * the append's fold from the checkpoint, and the append's check, just before it writes, that the
 * log is still what it folded. An append that follows another in the same command starts from the
 * checkpoint the one before it kept in memory.
 */
const COMMANDS: ReadonlyArray<
  Readonly<{ name: string; code: number; reads: number; args: (s: Scenario) => Promise<string[]> }>
> = [
  {
    name: 'record --report',
    code: 0,
    reads: 3,
    args: async (s) => ['record', 'run-1', '--report', await round4(s, 'r4.json')],
  },
  {
    name: 'record --findings-md',
    code: 0,
    reads: 3,
    args: async (s) => [
      'record',
      'run-1',
      '--findings-md',
      await s.file('r4.md', `## Findings\n1. [open] ${FINDING.slice(0, 12)} :: still leaks\n`),
    ],
  },
  {
    // the hint before the wait, and again once the report arrived (the run may have moved meanwhile)
    name: 'record --wait',
    code: 0,
    reads: 4,
    args: async (s) => {
      const inbox = path.join(s.dir, 'inbox', 'round.json');
      expect((await s.run('publish', inbox, '--report', await round4(s, 'r4.json'))).code).toBe(0);
      return ['record', 'run-1', '--wait', inbox, '--timeout-ms', '30000'];
    },
  },
  {
    name: 'contribute',
    code: 0,
    reads: 2,
    args: async (s) => ['contribute', 'run-1', '--reviewer', 'ada', '--report', await round4(s, 'c4.json')],
  },
  {
    // the hint; the contribution's append; the hint after it (was anyone heard?); the merge's append
    name: 'collect',
    code: 0,
    reads: 6,
    args: async (s) => {
      const inbox = path.join(s.dir, 'inbox', 'ada.json');
      expect((await s.run('publish', inbox, '--report', await round4(s, 'c4.json'))).code).toBe(0);
      return ['collect', 'run-1', '--reviewer', `ada=${inbox}`, '--timeout-ms', '30000'];
    },
  },
  { name: 'stage --start', code: 0, reads: 2, args: async () => ['stage', 'run-1', 'planning', '--start'] },
  {
    name: 'reproduce',
    code: 0,
    reads: 2,
    args: async () => ['reproduce', 'run-1', FINDING, '--still-fails'],
  },
  {
    name: 'checks',
    code: 0,
    reads: 2,
    args: async () => ['checks', 'run-1', '--check', 'test=passed', '--url', 'https://ci.example/1'],
  },
  {
    name: 'capture',
    code: 0,
    reads: 3,
    args: async (s) => {
      s.edit(5);
      return ['capture', 'run-1'];
    },
  },
  // the run is open: the gate refuses, having read where it stands
  { name: 'gate', code: 1, reads: 1, args: async () => ['gate', 'run-1'] },
];

describe('every read before the lock starts from the checkpoint', () => {
  it.each(COMMANDS)(
    '$name after three rounds: no fold from the start, no byte before the checkpoint read',
    async (command) => {
      const scenario = await afterThreeRounds();
      const args = await command.args(scenario);
      const { result, reads } = await readsDuring(() => scenario.run(...args));
      expect(result.code).toBe(command.code);
      expect({
        fromTheStart: reads.filter((r) => r.position === 0).length,
        beforeTheCheckpoint: reads.filter((r) => r.position < scenario.lineStart).length,
        reads: reads.length,
      }).toEqual({ fromTheStart: 0, beforeTheCheckpoint: 0, reads: command.reads });
      // the first reads are the checkpoint's last line exactly; an append's own line, once written, is all that follows
      const appended = (await stat(scenario.log)).size - scenario.lineStart - scenario.lastLine;
      expect(reads[0]).toEqual({ position: scenario.lineStart, length: scenario.lastLine });
      const bytes = reads.reduce((n, r) => n + r.length, 0);
      expect(bytes).toBeLessThanOrEqual(command.reads * (scenario.lastLine + appended));
    },
  );

  it('the probe sees a fold from the start: with the checkpoint gone, record reads the whole log; verify always does', async () => {
    const s = await afterThreeRounds();
    const size = (await stat(s.log)).size;
    const r4 = await round4(s, 'r4.json');
    await rm(path.join(s.dir, 'runs', 'run-1.fold'));
    const recorded = await readsDuring(() => s.run('record', 'run-1', '--report', r4));
    expect(recorded.result.code).toBe(0);
    // the hint and the append each fold the whole log, then the append checks its last line before it writes
    expect(recorded.reads).toEqual([
      { position: 0, length: size },
      { position: 0, length: size },
      { position: s.lastLineStart, length: size - s.lastLineStart },
    ]);
    const verified = await readsDuring(() => s.run('verify', 'run-1'));
    expect(verified.result.code).toBe(0);
    expect(verified.reads).toEqual([{ position: 0, length: (await stat(s.log)).size }]);
  });
});
