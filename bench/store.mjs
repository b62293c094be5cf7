// Store benchmarks: durable append vs a synchronous write+fsync (single, batch, concurrent writers); status
// over 10,000 runs vs one; read+verify of 100,000 events vs readline+JSON.parse. Each figure is measured side by side in one run. (Cold start is
// in coldstart.mjs.)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  createReadStream,
  existsSync,
  fdatasyncSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDecider, fold } from '@clearance/fold';
import {
  append,
  appendBatch,
  encodeEvents,
  fileStore,
  foldRunFromStart,
  parseHead,
  scanLog,
  ZERO_HASH,
} from '../lib/index.js';
import { forgetCheckpoint, writeCheckpoint } from '../lib/store/checkpoint.js';
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

/**
 * A run's log written directly: `events` encoded and chained, with its head anchor. An older
 * build's runs are written with its own `encode`, so that each line carries a version it reads.
 */
const writeRun = async (dir, runId, events, encode = encodeEvents) => {
  const encoded = encode(events, { seq: 0, hash: ZERO_HASH }, { at: new Date().toISOString(), by: 'bench' });
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

const quantile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

/**
 * The library to measure against, when CLEARANCE_BENCH_BEFORE_LIB names an older build's `lib/`
 * (with its dependencies installed beside it): its `append` and `appendBatch`, run interleaved
 * with this build's in the same process, on runs of their own.
 */
const beforeLib = async (dir = process.env.CLEARANCE_BENCH_BEFORE_LIB) => {
  if (dir === undefined || dir === '') return null;
  const store = await import(pathToFileURL(path.join(path.resolve(dir), 'index.js')).href);
  // the checkpoint's module was store/fold-cache.js before issue 25 named it
  const module = ['checkpoint.js', 'fold-cache.js']
    .map((name) => path.join(path.resolve(dir), 'store', name))
    .find((file) => existsSync(file));
  const cache = await import(pathToFileURL(module).href);
  return {
    dir: path.resolve(dir),
    append: store.append,
    appendBatch: store.appendBatch,
    encodeEvents: store.encodeEvents,
    forget: cache.forgetCheckpoint,
  };
};

/**
 * Durable append against its limit, measured as the physicist would: the anchor is a synchronous
 * `writeSync` + `fsyncSync` of a line of the same size to a plain file, and the sides take turns
 * one operation at a time, so a burst of someone else's I/O lands on every side alike. Appends go
 * round-robin over `runs` realistic 13-event runs, each append to another run than the one before
 * (a fleet of review loops, one process serving them); the anchor writes round-robin over as many
 * plain files. Per repeat, each ratio is the anchor's median time over the side's median time;
 * the ranges are over repeats.
 *
 * Sides: one append (the checkpoint kept in memory, as a long-lived process has it); the same with
 * the checkpoint read from disk, as a fresh CLI process does; `appendBatch` of 10 steps (one hold
 * of the lock, each step fsynced before the next, per append); one append to a 10,000-event run (the
 * cost of history); and, with CLEARANCE_BENCH_BEFORE_LIB, the single and batch appends of that
 * older build.
 */
export const appendBench = async ({ repeats = 5, rounds = 120, runs = 100 } = {}) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  const before = await beforeLib();
  try {
    const fleet = [];
    for (let k = 0; k < runs; k += 1) {
      const run = { id: `run-${k}`, ...openRunOf(`run-${k}`, 12) };
      await writeRun(dir, run.id, run.events);
      fleet.push(run);
    }
    const large = { id: 'large', ...openRunOf('large', 9_999) };
    await writeRun(dir, large.id, large.events);
    const beforeDir = path.join(dir, 'before');
    const beforeFleet = [];
    if (before !== null)
      for (let k = 0; k < runs; k += 1) {
        const run = { id: `run-${k}`, ...openRunOf(`run-${k}`, 12) };
        await writeRun(beforeDir, run.id, run.events, before.encodeEvents);
        beforeFleet.push(run);
      }
    const failure = (run, i) => [failedAttempt(4, run.inputSha, i)];
    // the anchor's bytes: one line the size of an appended one
    const line = Buffer.from(
      encodeEvents(
        failure(fleet[0], 0),
        { seq: 13, hash: ZERO_HASH },
        { at: new Date().toISOString(), by: 'bench' },
      ).text,
    );
    const raw = Array.from({ length: runs }, (_, k) => openSync(path.join(dir, `raw-${k}.jsonl`), 'a'));
    const log = (d, id) => path.join(d, 'runs', `${id}.jsonl`);
    let n = 0;
    const turn = {};
    const next = (side, of) => {
      turn[side] = ((turn[side] ?? -1) + 1) % of.length;
      n += 1;
      return of[turn[side]];
    };
    const attempt = () => {
      n += 1;
      return n;
    };
    const batchOf = (run) => Array.from({ length: 10 }, () => failure(run, attempt()));
    const by = { by: 'bench' };
    const sides = {
      raw: async () => {
        const fd = next('raw', raw);
        writeSync(fd, line);
        fsyncSync(fd);
      },
      single: () => {
        const run = next('single', fleet);
        return append(dir, run.id, failure(run, n), by);
      },
      fresh: () => {
        const run = next('fresh', fleet);
        forgetCheckpoint(log(dir, run.id));
        return append(dir, run.id, failure(run, n), by);
      },
      batch: () => {
        const run = next('batch', fleet);
        return appendBatch(dir, run.id, batchOf(run), by);
      },
      large: () => append(dir, large.id, failure(large, attempt()), by),
      ...(before === null
        ? {}
        : {
            singleBefore: () => {
              const run = next('singleBefore', beforeFleet);
              return before.append(beforeDir, run.id, failure(run, n), by);
            },
            batchBefore: () => {
              const run = next('batchBefore', beforeFleet);
              return before.appendBatch(beforeDir, run.id, batchOf(run), by);
            },
          }),
    };
    const perOp = { batch: 10, batchBefore: 10 };
    // warm up: the first append to each run folds it whole and writes its checkpoint
    for (const side of Object.values(sides)) for (let i = 0; i < runs + 3; i += 1) await side();
    const ms = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    for (let r = 0; r < repeats; r += 1) {
      const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
      for (let i = 0; i < rounds; i += 1)
        for (const [name, side] of Object.entries(sides)) {
          const t = performance.now();
          await side();
          times[name].push((performance.now() - t) / (perOp[name] ?? 1));
        }
      for (const name of Object.keys(sides)) ms[name].push(quantile(times[name], 0.5));
    }
    for (const fd of raw) closeSync(fd);
    const ratio = (name) => (ms[name] === undefined ? null : ms.raw.map((rawMs, r) => rawMs / ms[name][r]));
    const versus = (a, b) => (ms[b] === undefined ? null : ms[b].map((x, r) => x / ms[a][r]));
    return {
      runs,
      rounds,
      repeats,
      rawMs: ms.raw,
      ms,
      single: ratio('single'),
      fresh: ratio('fresh'),
      batch: ratio('batch'),
      singleLarge: ratio('large'),
      growth: ms.large.map((x, r) => x / ms.single[r]),
      singleBefore: ratio('singleBefore'),
      batchBefore: ratio('batchBefore'),
      singleSpeedup: versus('single', 'singleBefore'),
      batchSpeedup: versus('batch', 'batchBefore'),
      before: before?.dir ?? null,
      ranged,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * One writer process: warmed up by `WARM_UP` appends to a run of its own (so the figure is of
 * appenders, not of V8 compiling them), then `count` appends to the shared run as fast as it
 * can, once `go` exists; says its span.
 */
const WARM_UP = 40;
const writerScript = (lib) => `
  import { existsSync, fsyncSync, openSync, writeSync } from 'node:fs';
  const [mode, dir, runId, inputSha, count, go, me] = process.argv.slice(1);
  const { append } = mode === 'raw' ? {} : await import(${JSON.stringify(lib)});
  const fd = mode === 'raw' ? openSync(dir + '/raw.jsonl', 'a') : -1;
  const line = Buffer.from('x'.repeat(300) + '\\n');
  const failed = (i) => [{ type: 'round.failed', data: { round: 4, inputSha, reason: 'timeout', detail: 'writer ' + me + ' attempt ' + i + ': no report within 600000 ms' } }];
  for (let i = 0; i < ${WARM_UP}; i += 1) {
    if (mode === 'raw') {
      writeSync(fd, line);
      fsyncSync(fd);
    } else await append(dir, 'warm-' + me, failed(i), { by: 'w' + me });
  }
  process.stdout.write('ready\\n');
  while (!existsSync(go)) await new Promise((r) => setTimeout(r, 1));
  const started = performance.timeOrigin + performance.now();
  for (let i = 0; i < Number(count); i += 1) {
    if (mode === 'raw') {
      writeSync(fd, line);
      fsyncSync(fd);
    } else await append(dir, runId, failed(i), { by: 'w' + me, timeoutMs: 60000 });
  }
  process.stdout.write(JSON.stringify({ started, ended: performance.timeOrigin + performance.now() }) + '\\n');
`;

const runWriters = async (mode, lib, dir, run, writers, count, encode = encodeEvents) => {
  const go = path.join(dir, `go-${mode}-${Math.random().toString(16).slice(2)}`);
  if (mode !== 'raw')
    for (let me = 0; me < writers; me += 1) await writeRun(dir, `warm-${me}`, run.events, encode);
  const children = Array.from({ length: writers }, (_, me) => {
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        writerScript(lib),
        mode,
        dir,
        run.id,
        run.inputSha,
        String(count),
        go,
        String(me),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    return { out: () => out, exited };
  });
  while (!children.every((c) => c.out().includes('ready'))) await new Promise((r) => setTimeout(r, 5));
  await writeFile(go, '');
  const codes = await Promise.all(children.map((c) => c.exited));
  if (codes.some((c) => c !== 0))
    throw new Error(`bench: a ${mode} writer failed (exit ${codes.join(', ')})`);
  const spans = children.map((c) =>
    JSON.parse(
      c
        .out()
        .split('\n')
        .find((l) => l.startsWith('{')),
    ),
  );
  const wall = Math.max(...spans.map((s) => s.ended)) - Math.min(...spans.map((s) => s.started));
  return (writers * count * 1000) / wall;
};

/**
 * Concurrent appenders to one run: `writers` processes, each warmed up, appending `count` events
 * each to the same run as fast as they can, appends per second over the span from the first start to the last
 * end. Against the same processes through CLEARANCE_BENCH_BEFORE_LIB's build (today's figure, when
 * given) and against `writers` processes doing the anchor's `writeSync` + `fsyncSync` to one
 * shared file (the disk's limit for that many writers, with the kernel's own sharing of
 * flushes); interleaved, repeat by repeat.
 */
export const concurrentBench = async ({ writers = 8, count = 150, repeats = 3 } = {}) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  const before = process.env.CLEARANCE_BENCH_BEFORE_LIB;
  const libOf = (d) => pathToFileURL(path.join(path.resolve(d), 'index.js')).href;
  const here = libOf(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../lib'));
  try {
    const run = { id: 'busy', ...openRunOf('busy', 12) };
    const rates = { after: [], before: [], raw: [] };
    for (let r = 0; r < repeats; r += 1) {
      const after = path.join(dir, `after-${r}`);
      await writeRun(after, run.id, run.events);
      rates.after.push(await runWriters('append', here, after, run, writers, count));
      if (before !== undefined && before !== '') {
        const old = path.join(dir, `before-${r}`);
        const { encodeEvents: encodeBefore } = await import(libOf(before));
        await writeRun(old, run.id, run.events, encodeBefore);
        rates.before.push(await runWriters('append', libOf(before), old, run, writers, count, encodeBefore));
      }
      rates.raw.push(await runWriters('raw', here, dir, run, writers, count));
    }
    return {
      writers,
      count,
      repeats,
      rates,
      speedup: rates.before.length === 0 ? null : rates.after.map((a, i) => a / rates.before[i]),
      ofRaw: rates.after.map((a, i) => a / rates.raw[i]),
      before: before || null,
      ranged,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

/**
 * The lock's own cost, and the alternatives issue 22 names, each around the anchor's same
 * `writeSync` + `fsyncSync`, round-robin over `runs` files, one operation of each side in turn:
 * this build's lock (a `link()` of a per-process owner file, `unlink()` after); the lock before it
 * (proper-lockfile's `mkdir`, an owner file written into it, both removed after); that directory
 * lock on tmpfs (`/dev/shm`) instead of the store's disk; the anchor with `fdatasync` instead of
 * `fsync`; and an OFD lock (`fcntl`, through fs-native-extensions) when that package is installed
 * (it is not a dependency: `npm install --no-save fs-native-extensions` to measure it). The ratio
 * is the anchor's median over the side's, per repeat.
 */
export const lockAlternativesBench = async ({ repeats = 5, rounds = 200, runs = 100 } = {}) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  const shm = existsSync('/dev/shm') ? await mkdtemp('/dev/shm/clearance-bench-') : null;
  const ofd = await import('fs-native-extensions').then(
    (m) => m.default ?? m,
    () => null,
  );
  try {
    const line = Buffer.from(`${'x'.repeat(300)}\n`);
    const files = Array.from({ length: runs }, (_, k) => path.join(dir, `run-${k}.jsonl`));
    const fds = files.map((f) => openSync(f, 'a'));
    const record = 'c1:4194304:123456789012:3fa2b1c09d8e:0123456789abcdef';
    const owner = path.join(dir, 'owner');
    await writeFile(owner, record);
    let k = -1;
    const next = () => {
      k = (k + 1) % runs;
      return k;
    };
    const durable = (i, sync = fsyncSync) => {
      writeSync(fds[i], line);
      sync(fds[i]);
    };
    const directoryLock = (lock, i) => {
      mkdirSync(lock);
      writeFileSync(path.join(lock, 'owner'), record, { flag: 'wx' });
      durable(i);
      unlinkSync(path.join(lock, 'owner'));
      rmdirSync(lock);
    };
    const sides = {
      raw: () => durable(next()),
      linkLock: () => {
        const i = next();
        linkSync(owner, `${files[i]}.lock`);
        writeSync(fds[i], line);
        unlinkSync(`${files[i]}.lock`);
        fsyncSync(fds[i]);
      },
      directoryLock: () => {
        const i = next();
        directoryLock(`${files[i]}.lock`, i);
      },
      ...(shm === null
        ? {}
        : { tmpfsDirectoryLock: () => directoryLock(path.join(shm, `run-${next()}.lock`), k) }),
      fdatasync: () => durable(next(), fdatasyncSync),
      ...(ofd === null
        ? {}
        : {
            ofdLock: () => {
              const i = next();
              if (!ofd.tryLock(fds[i])) throw new Error('bench: the OFD lock was held');
              writeSync(fds[i], line);
              ofd.unlock(fds[i]);
              fsyncSync(fds[i]);
            },
          }),
    };
    for (const side of Object.values(sides)) for (let i = 0; i < runs; i += 1) side();
    const ms = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
    for (let r = 0; r < repeats; r += 1) {
      const times = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
      for (let i = 0; i < rounds; i += 1)
        for (const [name, side] of Object.entries(sides)) {
          const t = performance.now();
          side();
          times[name].push(performance.now() - t);
        }
      for (const name of Object.keys(sides)) ms[name].push(quantile(times[name], 0.5));
    }
    for (const fd of fds) closeSync(fd);
    const ratios = Object.fromEntries(
      Object.keys(sides).map((name) => [name, ms.raw.map((raw, r) => raw / ms[name][r])]),
    );
    return { ms, ratios, ofd: ofd !== null, tmpfs: shm !== null, ranged };
  } finally {
    await rm(dir, { recursive: true, force: true });
    if (shm !== null) await rm(shm, { recursive: true, force: true });
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
      const folded = fold(createDecider().evolve, encoded.stored);
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
      const read = await foldRunFromStart(fileStore(dir), 'big');
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
