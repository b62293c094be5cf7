// Store benchmarks: durable append vs a synchronous write+fsync; status over 10,000 runs vs one; read+verify
// of 100,000 events vs readline+JSON.parse. Each figure is measured side by side in one run. (Cold start is
// in coldstart.mjs.)
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, createReadStream, fsyncSync, openSync, statSync, writeSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fold } from '../lib/fold.js';
import {
  append,
  appendBatch,
  encodeEvents,
  parseHead,
  readRunState,
  scanLog,
  ZERO_HASH,
} from '../lib/index.js';
import { forgetCheckpoint, writeCheckpoint } from '../lib/store/fold-cache.js';
import { encodeHead } from '../lib/store/log-format.js';
import { realisticRun } from './fold.mjs';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/cli.js');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const failedAttempt = (round, inputSha, i) => ({
  type: 'round.failed',
  data: {
    round,
    inputSha,
    reason: 'timeout',
    detail: `attempt ${i}: no report within 600000 ms at review/round-${round}.json`,
  },
});

const ranged = (xs, digits = 2) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${sorted[0].toFixed(digits)}–${sorted[sorted.length - 1].toFixed(digits)}`;
};

/** A run's log written directly: `events` encoded and chained, with its head anchor. */
const writeRun = async (dir, runId, events) => {
  const encoded = encodeEvents(
    events,
    { seq: 0, hash: ZERO_HASH },
    { at: new Date().toISOString(), by: 'bench' },
  );
  const runs = path.join(dir, 'runs');
  await mkdir(runs, { recursive: true });
  await writeFile(path.join(runs, `${runId}.jsonl`), encoded.text);
  await writeFile(
    path.join(runs, `${runId}.head`),
    encodeHead({ seq: encoded.lastSeq, hash: encoded.lastHash }),
  );
  return encoded;
};

/** A realistic run still open at round 4 (13 events once appended to), padded with failed attempts to `size`. */
const openRunOf = (runId, size) => {
  const events = realisticRun(runId).slice(0, 12);
  const inputSha = events[10].data.inputSha;
  for (let i = events.length; i < size; i += 1) events.push(failedAttempt(4, inputSha, i));
  return { events, inputSha };
};

/**
 * Durable append against its limit, measured as the physicist would: the anchor is a synchronous
 * `writeSync` + `fsyncSync` of the same bytes to a plain file, and every side runs in interleaved
 * windows of one run, so a change in the disk's mood moves them all. Per repeat, each ratio is the
 * anchor's time per operation over the side's; the ranges are over repeats.
 *
 * Sides: one append to a 13-event run and to a 10,000-event run (in process: the checkpoint kept in
 * memory), the same as a fresh CLI process does it (the checkpoint read from disk), and `appendBatch`
 * of 10 steps (one hold of the lock, each step fsynced).
 */
export const appendBench = async (repeats = 7, window = 40) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  try {
    const small = openRunOf('small', 12);
    const large = openRunOf('large', 9_999);
    await writeRun(dir, 'small', small.events);
    await writeRun(dir, 'large', large.events);
    const failure = (run, i) => [failedAttempt(4, run.inputSha, i)];
    // the anchor's bytes: one line the size of an appended one
    const line = Buffer.from(
      encodeEvents(
        failure(small, 0),
        { seq: 13, hash: ZERO_HASH },
        { at: new Date().toISOString(), by: 'bench' },
      ).text,
    );
    const raw = openSync(path.join(dir, 'raw.jsonl'), 'a');
    const log = (id) => path.join(dir, 'runs', `${id}.jsonl`);
    let n = 0;
    const next = () => {
      n += 1;
      return n;
    };
    const sides = {
      raw: async () => {
        writeSync(raw, line);
        fsyncSync(raw);
      },
      small: () => append(dir, 'small', failure(small, next()), { by: 'bench' }),
      large: () => append(dir, 'large', failure(large, next()), { by: 'bench' }),
      smallFresh: () => {
        forgetCheckpoint(log('small'));
        return append(dir, 'small', failure(small, next()), { by: 'bench' });
      },
      largeFresh: () => {
        forgetCheckpoint(log('large'));
        return append(dir, 'large', failure(large, next()), { by: 'bench' });
      },
      batch: () =>
        appendBatch(
          dir,
          'small',
          Array.from({ length: 10 }, () => failure(small, next())),
          { by: 'bench' },
        ),
    };
    const perOp = { batch: 10 };
    // warm up: the first append to each run folds it whole and writes its checkpoint
    for (const side of Object.values(sides)) for (let i = 0; i < 3; i += 1) await side();
    const ms = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    for (let r = 0; r < repeats; r += 1) {
      for (const [name, side] of Object.entries(sides)) {
        const t = performance.now();
        for (let i = 0; i < window; i += 1) await side();
        ms[name].push((performance.now() - t) / window / (perOp[name] ?? 1));
      }
    }
    closeSync(raw);
    const ratio = (name) => ms.raw.map((rawMs, r) => rawMs / ms[name][r]);
    const growth = (big, little) => ms[big].map((b, r) => b / ms[little][r]);
    return {
      rawMs: ms.raw,
      ms,
      single: ratio('small'),
      singleLarge: ratio('large'),
      fresh: ratio('smallFresh'),
      batch: ratio('batch'),
      growth: growth('large', 'small'),
      growthFresh: growth('largeFresh', 'smallFresh'),
      ranged,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * `clearance status` over 10,000 runs against `clearance status <run>`, each a process of its own,
 * interleaved. Each run is a realistic 13-event log with the checkpoint an appender leaves beside
 * it (written here directly, as `append` writes it, to keep the set-up short).
 */
export const manyRunsBench = async (runs = 10_000, trials = 5) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  try {
    for (let r = 0; r < runs; r += 1) {
      const id = `run-${String(r).padStart(5, '0')}`;
      const { events } = openRunOf(id, 13);
      const encoded = await writeRun(dir, id, events);
      const folded = fold(encoded.stored);
      const file = statSync(log(dir, id));
      const size = file.size;
      const lastLine = encoded.text.slice(encoded.text.lastIndexOf('\n', encoded.text.length - 2) + 1);
      writeCheckpoint(path.join(dir, 'runs', `${id}.fold`), {
        file: { ino: file.ino, ctimeMs: file.ctimeMs },
        size,
        seq: encoded.lastSeq,
        hash: encoded.lastHash,
        lineStart: size - Buffer.byteLength(lastLine),
        events: encoded.stored.length,
        refused: 0,
        state: folded.state,
      });
    }
    const time = (args) => {
      const t = performance.now();
      execFileSync(process.execPath, [CLI, '--dir', dir, ...args], { stdio: 'ignore' });
      return performance.now() - t;
    };
    const maxRss = (args) => {
      const run = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, CLI, '--dir', dir, ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      if (run.error !== undefined) throw run.error;
      return Number(run.stderr.toString().trim().split('\n').at(-1)) / 1024;
    };
    const one = [];
    const all = [];
    const verifyAll = [];
    for (let i = 0; i < trials; i += 1) {
      one.push(time(['status', 'run-00042']));
      all.push(time(['status']));
      verifyAll.push(time(['verify']));
    }
    let rss = null;
    try {
      rss = { status: maxRss(['status']), verify: maxRss(['verify']), one: maxRss(['status', 'run-00042']) };
    } catch {
      // no /usr/bin/time here: memory is not reported
    }
    return {
      runs,
      oneMs: median(one),
      allMs: median(all),
      verifyMs: median(verifyAll),
      ratios: all.map((a, i) => a / one[i]),
      verifyRatios: verifyAll.map((a, i) => a / one[i]),
      rss,
      ranged,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const log = (dir, id) => path.join(dir, 'runs', `${id}.jsonl`);

export const readBench = async (target = 100_000) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  try {
    // one long run: realistic rounds, then failed attempts until 100,000 events
    const events = realisticRun('big').slice(0, 5); // opened, round 1 (captured, failed, recorded), round 2 captured
    const inputSha = events[4].data.inputSha;
    for (let i = events.length; i < target; i += 1) events.push(failedAttempt(2, inputSha, i));
    const encoded = encodeEvents(
      events,
      { seq: 0, hash: ZERO_HASH },
      { at: new Date().toISOString(), by: 'bench' },
    );
    await writeFile(path.join(dir, 'runs.tmp'), '');
    await rm(path.join(dir, 'runs.tmp'));
    const runs = path.join(dir, 'runs');
    await import('node:fs/promises').then((fs) => fs.mkdir(runs));
    await writeFile(path.join(runs, 'big.jsonl'), encoded.text);
    await writeFile(
      path.join(runs, 'big.head'),
      `${JSON.stringify({ seq: encoded.lastSeq, hash: encoded.lastHash })}\n`,
    );
    const bytes = Buffer.byteLength(encoded.text);
    const timings = { clearance: [], verifyOnly: [], raw: [] };
    for (let trial = 0; trial < 5; trial += 1) {
      let t = performance.now();
      // verify alone: read, UTF-8, JSON, decode, seq, hash chain, head anchor; nothing folded
      const bytesRead = await readFile(path.join(runs, 'big.jsonl'));
      const head = parseHead(await readFile(path.join(runs, 'big.head'), 'utf8'));
      let seen = 0;
      const checked = scanLog(bytesRead, head, () => {
        seen += 1;
      });
      if (checked.issue !== null || seen !== target) throw new Error('bench: the log did not verify');
      timings.verifyOnly.push(performance.now() - t);
      t = performance.now();
      const read = await readRunState(dir, 'big');
      if (read.issue !== null || read.events !== target || read.refused !== 0)
        throw new Error('bench: the log did not verify');
      timings.clearance.push(performance.now() - t);
      t = performance.now();
      let n = 0;
      const rl = createInterface({
        input: createReadStream(path.join(runs, 'big.jsonl')),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      for await (const line of rl) {
        JSON.parse(line);
        n += 1;
      }
      if (n !== target) throw new Error('bench: readline lost lines');
      timings.raw.push(performance.now() - t);
    }
    const clearanceRate = (target / median(timings.clearance)) * 1000;
    const verifyRate = (target / median(timings.verifyOnly)) * 1000;
    const rawRate = (target / median(timings.raw)) * 1000;
    return {
      events: target,
      bytes,
      verifyRate,
      clearanceRate,
      rawRate,
      ratio: verifyRate / rawRate,
      foldedRatio: clearanceRate / rawRate,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};
