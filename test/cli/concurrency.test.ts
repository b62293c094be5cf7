import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../property-tests/runs.js';
import { decodeCheckpoint } from '../../src/store/checkpoint.js';
import { append, fileStore, foldRunFromStart, parseLog } from '../../src/store/index.js';
import { startAppender } from '../support/appender.js';
import { candidate, decision, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { fold } from '../support/decider.js';
import { stateFromCheckpoint } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const major = candidate();

/** Racing processes: the full count in CI, fewer in a local run (each is a real Node process). */
const APPENDERS = scaled(12, 4);
const RUNS = scaled(8, 3);
/** library writers each appending several times to one run, while the others sync (group commit) */
const WRITERS = scaled(6, 3);
const EACH = scaled(25, 10);
/** processes racing for one round: two already race; a third makes the losers more than one */
const RACERS = scaled(6, 3);
const racers = Array.from({ length: RACERS }, (_, i) => i + 1);

const STORE = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../lib/store/index.js'),
).href;

/** A process appending `count` captures to a run through the built library, one after another. */
const libraryWriter = (dir: string, runId: string, me: number, count: number) => {
  const script = `
    import { append } from ${JSON.stringify(STORE)};
    const [dir, runId, me, count] = process.argv.slice(1);
    for (let i = 0; i < Number(count); i += 1) {
      const data = { round: 1, inputSha: 'writer-' + me + '-' + i, touchedFiles: [], renames: [] };
      await append(dir, runId, [{ type: 'revision.captured', data }], { by: 'w' + me, timeoutMs: 60000 });
    }`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, dir, runId, String(me), String(count)],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  return once(child, 'exit').then(([code]) => code as number | null);
};

/** Every capture once, in the order the log holds them; seqs 1..n; the checkpoint says what the log says. */
const expectWhole = async (dir: string, runId: string, inputs: ReadonlyArray<string>) => {
  const parsed = parseLog(await readFile(path.join(dir, 'runs', `${runId}.jsonl`)));
  expect(parsed.issue).toBeNull();
  expect(parsed.tornTail).toBeNull();
  expect(parsed.events.map((e) => e.seq)).toEqual(Array.from({ length: inputs.length + 1 }, (_, i) => i + 1));
  const captured = parsed.events.flatMap((e) => (e.type === 'revision.captured' ? [e.data.inputSha] : []));
  expect([...captured].sort()).toEqual([...inputs].sort());
  const checkpoint = decodeCheckpoint(await readFile(path.join(dir, 'runs', `${runId}.fold`), 'utf8'));
  expect(checkpoint?.end.seq).toBe(inputs.length + 1);
  expect(stateFromCheckpoint(dir, runId)).toEqual(fold(parsed.events).state);
  expect((await foldRunFromStart(fileStore(dir), runId)).state).toEqual(fold(parsed.events).state);
  return captured;
};

const runAtRound2 = async (dir: string, runId: string) => {
  const file = path.join(dir, `${runId}-r1.json`);
  await writeFile(file, JSON.stringify(report(1, 'A', { runId, candidates: [major] })));
  expect((await cli(['--dir', dir, 'open', runId, '--input-sha', sha('A')])).code).toBe(0);
  expect((await cli(['--dir', dir, 'record', runId, '--report', file])).code).toBe(0);
  expect(
    (await cli(['--dir', dir, 'capture', runId, '--input-sha', sha('B'), '--touched', major.file])).code,
  ).toBe(0);
  const round2 = path.join(dir, `${runId}-r2.json`);
  await writeFile(round2, JSON.stringify(report(2, 'B', { runId, decisions: [decision(major, 'fixed')] })));
  return round2;
};

describe('concurrent processes', () => {
  it(`${RACERS} processes racing to record different round-2 reports: exactly one succeeds, the rest are refused cleanly`, async () => {
    const dir = await tempDir();
    const round2 = await runAtRound2(dir, 'race');
    const base = JSON.parse(await readFile(round2, 'utf8')) as Record<string, unknown>;
    const variants = await Promise.all(
      racers.map(async (n) => {
        const file = path.join(dir, `round-2-by-${n}.json`);
        await writeFile(file, JSON.stringify({ ...base, reviewer: `racer ${n}` }));
        return file;
      }),
    );
    const results = await Promise.all(
      variants.map((file) =>
        cli(['--dir', dir, 'record', 'race', '--report', file, '--json'], { process: true }),
      ),
    );
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    for (const r of results.filter((x) => x.code !== 0)) {
      expect(r.code).toBe(1);
      expect((r.json.error as { code: string }).code).toBe('run-final');
    }
    const verify = await cli(['--dir', dir, 'verify', 'race', '--json']);
    expect(verify.json).toMatchObject({ ok: true, runs: [{ intact: true, lastSeq: 5 }] });
  });

  it(`${RACERS} processes racing with the same round-2 report (a driver retrying): one appends, the others are answered already recorded`, async () => {
    const dir = await tempDir();
    const round2 = await runAtRound2(dir, 'retry');
    const results = await Promise.all(
      racers.map(() =>
        cli(['--dir', dir, 'record', 'retry', '--report', round2, '--json'], { process: true }),
      ),
    );
    expect(results.map((r) => r.code)).toEqual(racers.map(() => 0));
    expect(results.filter((r) => r.json.alreadyRecorded === false)).toHaveLength(1);
    expect(results.filter((r) => r.json.alreadyRecorded === true)).toHaveLength(RACERS - 1);
    const verify = await cli(['--dir', dir, 'verify', 'retry', '--json']);
    expect(verify.json).toMatchObject({ ok: true, runs: [{ intact: true, lastSeq: 5 }] });
  });

  it(`${APPENDERS} appenders to one run never lose, duplicate or interleave an event`, async () => {
    const dir = await tempDir();
    expect((await cli(['--dir', dir, 'open', 'busy'])).code).toBe(0);
    const inputs = Array.from({ length: APPENDERS }, (_, i) => `input-${i}`);
    const results = await Promise.all(
      inputs.map((input) => cli(['--dir', dir, 'capture', 'busy', '--input-sha', input], { process: true })),
    );
    expect(results.map((r) => r.code)).toEqual(inputs.map(() => 0));
    const parsed = parseLog(await readFile(path.join(dir, 'runs', 'busy.jsonl')));
    expect(parsed.issue).toBeNull();
    expect(parsed.tornTail).toBeNull();
    expect(parsed.events.map((e) => e.seq)).toEqual(Array.from({ length: APPENDERS + 1 }, (_, i) => i + 1));
    const captured = parsed.events.flatMap((e) => (e.type === 'revision.captured' ? [e.data.inputSha] : []));
    expect([...captured].sort()).toEqual([...inputs].sort());
  });

  it(`${RUNS} processes recording into ${RUNS} runs at once all succeed`, async () => {
    const dir = await tempDir();
    const runs = Array.from({ length: RUNS }, (_, i) => `run-${i}`);
    const reports = await Promise.all(runs.map((runId) => runAtRound2(dir, runId)));
    const results = await Promise.all(
      runs.map((runId, i) =>
        cli(['--dir', dir, 'record', runId, '--report', reports[i] as string, '--json'], { process: true }),
      ),
    );
    expect(results.map((r) => [r.code, r.json.status])).toEqual(runs.map(() => [0, 'converged']));
    const verify = await cli(['--dir', dir, 'verify', '--json']);
    expect(verify.json.ok).toBe(true);
    expect((verify.json.runs as unknown[]).length).toBe(RUNS);
    // racing CLI processes (the set-up runs in-process) on a 2-core box shared with other work: room to start, not a timing assertion
  }, 180_000);

  it(`${WRITERS} library processes appending ${EACH} events each to one run, syncing while the next writes: every event exactly once, in each writer's order`, async () => {
    const dir = await tempDir();
    expect((await cli(['--dir', dir, 'open', 'shared'])).code).toBe(0);
    const writers = Array.from({ length: WRITERS }, (_, me) => me);
    const codes = await Promise.all(writers.map((me) => libraryWriter(dir, 'shared', me, EACH)));
    expect(codes).toEqual(writers.map(() => 0));
    const inputs = writers.flatMap((me) => Array.from({ length: EACH }, (_, i) => `writer-${me}-${i}`));
    const captured = await expectWhole(dir, 'shared', inputs);
    // each writer's appends were acknowledged one after another, so the log holds them in that order
    for (const me of writers) {
      const own = captured.filter((c) => c.startsWith(`writer-${me}-`));
      expect(own).toEqual(Array.from({ length: EACH }, (_, i) => `writer-${me}-${i}`));
    }
  }, 180_000);

  it('concurrent appends in one process to one run all land, each once', async () => {
    const dir = await tempDir();
    expect((await cli(['--dir', dir, 'open', 'one'])).code).toBe(0);
    const inputs = Array.from({ length: 24 }, (_, i) => `in-process-${i}`);
    const results = await Promise.all(
      inputs.map((inputSha) =>
        append(
          dir,
          'one',
          [{ type: 'revision.captured', data: { round: 1, inputSha, touchedFiles: [], renames: [] } }],
          { by: 'tester', timeoutMs: 30_000 },
        ),
      ),
    );
    expect(results.map((r) => r.appended.length)).toEqual(inputs.map(() => 1));
    expect(new Set(results.map((r) => r.appended[0]?.seq)).size).toBe(inputs.length);
    await expectWhole(dir, 'one', inputs);
  });

  it('a command that times out on a live holder is lock-timeout (exit 5) naming it, not a lock "in the way"', async () => {
    const dir = await tempDir();
    expect((await cli(['--dir', dir, 'open', 'held'])).code).toBe(0);
    const go = path.join(dir, 'go');
    const holder = await startAppender(dir, 'held', 'from-holder', go);
    try {
      const log = await readFile(path.join(dir, 'runs', 'held.jsonl'));
      const timedOut = await cli([
        '--dir',
        dir,
        '--lock-timeout',
        '200',
        'capture',
        'held',
        '--input-sha',
        'x',
        '--json',
      ]);
      expect([timedOut.code, (timedOut.json.error as { code: string }).code]).toEqual([5, 'lock-timeout']);
      expect((timedOut.json.error as { message: string }).message).toContain(
        `process ${holder.child.pid} holds it`,
      );
      expect(await readFile(path.join(dir, 'runs', 'held.jsonl'))).toEqual(log);
    } finally {
      await writeFile(go, '');
    }
    expect(await holder.exited).toBe(0);
  });
});
