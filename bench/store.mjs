// Store benchmarks: durable append vs raw write+fsync; read+verify of 100,000 events vs readline+JSON.parse.
// Each figure is measured side by side in one run. (Cold start is in coldstart.mjs.)
import { createReadStream } from 'node:fs';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { append, encodeEvents, openRun, parseHead, readRunState, scanLog, ZERO_HASH } from '../lib/index.js';
import { realisticRun } from './fold.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const failedAttempt = (round, inputSha, i) => ({
  type: 'round.failed',
  data: {
    round,
    inputSha,
    reason: 'timeout',
    detail: `attempt ${i}: no report within 600000 ms at /work/review/round-${round}.json`,
  },
});

/**
 * Durable appends to realistic logs: 100 runs, each opened with a 4-round history (13 events), get
 * 3 more round events each, round-robin, so no log grows past what a real run holds.
 */
export const appendBench = async (runs = 100, each = 3) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-bench-'));
  try {
    const ids = [];
    for (let r = 0; r < runs; r += 1) {
      const id = `bench-${r}`;
      const history = realisticRun(id).slice(0, 12); // up to round 4's capture and failed attempt: still open
      await openRun(dir, history[0].data, { by: 'bench' });
      await append(dir, id, history.slice(1), { by: 'bench' });
      ids.push({ id, inputSha: history[10].data.inputSha });
    }
    const started = performance.now();
    for (let i = 0; i < each; i += 1) {
      for (const { id, inputSha } of ids)
        await append(dir, id, [failedAttempt(4, inputSha, i)], { by: 'bench' });
    }
    const appendMs = performance.now() - started;
    const count = runs * each;
    // the same bytes, written raw: one write and one fsync each, to a plain file
    const lines = [];
    for (const { id } of ids)
      lines.push(
        ...(await readFile(path.join(dir, 'runs', `${id}.jsonl`), 'utf8')).split('\n').slice(-1 - each, -1),
      );
    const raw = await open(path.join(dir, 'raw.jsonl'), 'a');
    const rawStarted = performance.now();
    for (const line of lines) {
      await raw.write(`${line}\n`);
      await raw.sync();
    }
    const rawMs = performance.now() - rawStarted;
    await raw.close();
    const appendRate = (count / appendMs) * 1000;
    const rawRate = (lines.length / rawMs) * 1000;
    return { count, appendRate, rawRate, ratio: appendRate / rawRate };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

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
