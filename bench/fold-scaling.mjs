// Fold scaling: how the cost of folding grows with the number of events of each kind, the number
// of findings, and the number of rounds with 1,000 open findings (target: exponent <= 1.25); and a
// `status`-style read (read + verify + fold) of a 100,000-event mixed log beside readline +
// JSON.parse of the same file (target >= 0.5x). Sizes and sides are interleaved; each figure is a
// median over repeats, with the range printed beside it.
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  encodeEvents,
  findingId,
  initialState,
  PRESETS,
  readRunState,
  roundRecorded,
  step,
  ZERO_HASH,
} from '../lib/index.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = (xs) => [Math.min(...xs), Math.max(...xs)];

const policy = (maxRounds) => ({ ...PRESETS.default, maxRounds, stages: ['planning', 'experts'] });
const opened = (maxRounds = 4) => ({
  type: 'run.opened',
  data: { runId: 'scale', policy: policy(maxRounds), subject: {}, consent: { by: 'bench', commands: [] } },
});
const captured = (round, touchedFiles = []) => ({
  type: 'revision.captured',
  data: { round, inputSha: `in-${round}`, touchedFiles, renames: [] },
});
const finding = (i, file = `src/f${i % 50}.ts`) => ({
  file,
  line: 1 + i,
  category: 'correctness',
  summary: `finding ${i}: the handle is not closed on the error path`,
  severity: 'major',
  confirmed: true,
  evidence: 'abort mid-stream: lsof shows one more socket',
});
const recorded = (round, candidates = [], decisions = [], result = 'complete') =>
  roundRecorded(
    { runId: 'scale', round, inputSha: `in-${round}`, completed: true, candidates, decisions },
    { result },
  );
const stageFailed = (i) => ({
  type: 'stage.failed',
  data: {
    round: 1,
    stage: 'planning',
    reason: `attempt ${i} timed out`,
    cost: { tokens: 10 },
    runner: 'agent',
  },
});
const stageStarted = { type: 'stage.started', data: { round: 1, stage: 'planning', commands: [] } };

/** The scenarios: each builds a valid log whose size grows with n in one dimension. */
export const SCENARIOS = {
  'stage events': (n) => {
    const events = [opened(), captured(1)];
    for (let i = 0; i < n / 2; i += 1) events.push(stageStarted, stageFailed(i));
    return events;
  },
  'failed attempts': (n) => {
    const events = [opened(), captured(1)];
    for (let i = 0; i < n; i += 1)
      events.push({
        type: 'round.failed',
        data: { round: 1, inputSha: 'in-1', reason: 'timeout', detail: `attempt ${i}` },
      });
    return events;
  },
  captures: (n) => {
    const events = [opened()];
    for (let i = 0; i < n; i += 1)
      events.push({ ...captured(1), data: { ...captured(1).data, inputSha: `push-${i}` } });
    return events;
  },
  'findings (opened, then 4 rounds deciding all)': (n) => {
    const files = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
    const cands = Array.from({ length: n }, (_, i) => finding(i));
    const ids = cands.map(findingId);
    const events = [opened(6), captured(1), recorded(1, cands)];
    for (let r = 2; r <= 5; r += 1)
      events.push(
        captured(r, files),
        recorded(
          r,
          [],
          ids.map((id) => ({ id, status: 'open', evidence: `round ${r}` })),
        ),
      );
    return events;
  },
  'rounds, 1,000 open findings untouched': (n) => {
    const cands = Array.from({ length: 1000 }, (_, i) => finding(i));
    const events = [opened(n + 2), captured(1), recorded(1, cands)];
    for (let r = 2; r <= n; r += 1) events.push(captured(r), recorded(r));
    return events;
  },
  'rounds, 1,000 open findings, 10 decided each round': (n) => {
    const cands = Array.from({ length: 1000 }, (_, i) => finding(i, `src/own-${i}.ts`));
    const ids = cands.map(findingId);
    const events = [opened(n + 2), captured(1), recorded(1, cands)];
    for (let r = 2; r <= n; r += 1) {
      const some = Array.from({ length: 10 }, (_, k) => ((r * 10 + k) * 7) % 1000);
      events.push(
        captured(
          r,
          some.map((i) => `src/own-${i}.ts`),
        ),
        recorded(
          r,
          [],
          some.map((i) => ({ id: ids[i], status: 'open', evidence: `round ${r}` })),
        ),
      );
    }
    return events;
  },
  'rounds ended and extensions': (n) => {
    const cands = [finding(0)];
    const events = [opened(1), captured(1), recorded(1, cands)];
    for (let r = 2; r <= n / 3; r += 1)
      events.push({ type: 'rounds.extended', data: { rounds: 1, why: 'one more', by: 'Ada' } }, captured(r), {
        type: 'round.ended',
        data: { round: r, result: 'none', reason: 'nothing to review' },
      });
    return events;
  },
  'rulings (2,000 findings, n ruled)': (n) => {
    const cands = Array.from({ length: 2000 }, (_, i) => finding(i));
    const events = [opened(1), captured(1), recorded(1, cands)];
    for (let i = 0; i < n; i += 1)
      events.push({
        type: 'finding.ruled',
        data: { findingId: findingId(cands[i]), status: 'withdrawn', why: 'accepted risk', by: 'Ada' },
      });
    return events;
  },
};

/** The state-only fold `status` does: each event through `evolve`, refusals counted, nothing kept. */
const foldState = (events) => {
  let state = initialState;
  let refused = 0;
  for (const event of events) {
    const after = step(state, event);
    if (after.rejection !== null) refused += 1;
    state = after.state;
  }
  if (refused > 0) throw new Error(`bench: ${refused} events were refused; the scenario is wrong`);
  return state;
};

const timeFold = (events) => {
  const t = performance.now();
  foldState(events);
  return performance.now() - t;
};

/** The exponent k in time ~ n^k, measured at sizes n, 2n, 4n, interleaved over repeats. */
export const measureExponent = (build, sizes, repeats = Number(process.env.BENCH_REPEATS ?? 5)) => {
  const logs = sizes.map((n) => build(n));
  const counts = logs.map((l) => l.length);
  for (const log of logs) timeFold(log); // warm up
  const times = sizes.map(() => []);
  for (let rep = 0; rep < repeats; rep += 1)
    for (const [i, log] of logs.entries()) times[i].push(timeFold(log));
  const medians = times.map(median);
  const slopes = [];
  for (let i = 1; i < sizes.length; i += 1)
    slopes.push(Math.log(medians[i] / medians[i - 1]) / Math.log(sizes[i] / sizes[i - 1]));
  return {
    sizes,
    counts,
    medians,
    ranges: times.map(range),
    exponent: Math.log(medians.at(-1) / medians[0]) / Math.log(sizes.at(-1) / sizes[0]),
    slopes,
  };
};

export const runScalingBench = (onEach = () => undefined) => {
  const sizes = {
    'stage events': [10_000, 20_000, 40_000],
    'failed attempts': [10_000, 20_000, 40_000],
    captures: [10_000, 20_000, 40_000],
    'findings (opened, then 4 rounds deciding all)': [500, 1_000, 2_000],
    'rounds, 1,000 open findings untouched': [50, 100, 200],
    'rounds, 1,000 open findings, 10 decided each round': [50, 100, 200],
    'rounds ended and extensions': [3_000, 6_000, 12_000],
    'rulings (2,000 findings, n ruled)': [100, 200, 400],
  };
  return Object.entries(SCENARIOS).map(([name, build]) => {
    const measured = { name, ...measureExponent(build, sizes[name]) };
    onEach(measured);
    return measured;
  });
};

/**
 * A legal 100,000-event run of every kind of event, each round shaped like a real one: a stale
 * capture and the real one, two stages failing and restarting (20 stage events), a failed
 * collection attempt, then the report: 5 new findings, and decisions on the 5 opened two rounds
 * before (their files were touched), 3 fixed and 2 kept open for one more round.
 */
const mixedLog = (target) => {
  const events = [opened(1_000_000)];
  const byRound = new Map();
  let keep = []; // decided open last round: touched again and fixed this round
  let i = 0;
  for (let round = 1; events.length < target; round += 1) {
    const fresh = byRound.get(round - 2) ?? [];
    const due = [...fresh, ...keep];
    events.push({ ...captured(round), data: { ...captured(round).data, inputSha: `stale-${round}` } });
    events.push(
      captured(
        round,
        due.map((f) => f.file),
      ),
    );
    for (let k = 0; k < 10; k += 1) {
      events.push(
        { ...stageStarted, data: { ...stageStarted.data, round } },
        { ...stageFailed(k), data: { ...stageFailed(k).data, round } },
      );
    }
    events.push({
      type: 'round.failed',
      data: { round, inputSha: `in-${round}`, reason: 'timeout', detail: 'no report' },
    });
    const cands = Array.from({ length: 5 }, () => {
      i += 1;
      return finding(i, `src/m${i}.ts`);
    });
    const decisions = due.map((f) => ({
      id: f.id,
      status: fresh.includes(f) && f.k >= 3 ? 'open' : 'fixed',
      evidence: `round ${round}: checked at this revision`,
    }));
    events.push(recorded(round, cands, decisions, 'partial'));
    byRound.set(
      round,
      cands.map((c, k) => ({ id: findingId(c), file: c.file, k })),
    );
    keep = fresh.filter((f) => f.k >= 3);
  }
  return events.slice(0, target);
};

export const runStatusBench = async (target = 100_000, repeats = 5) => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-fold-bench-'));
  try {
    const events = mixedLog(target);
    const encoded = encodeEvents(
      events,
      { seq: 0, hash: ZERO_HASH },
      { at: new Date().toISOString(), by: 'bench' },
    );
    const runs = path.join(dir, 'runs');
    await mkdir(runs);
    const log = path.join(runs, 'scale.jsonl');
    await writeFile(log, encoded.text);
    await writeFile(
      path.join(runs, 'scale.head'),
      `${JSON.stringify({ seq: encoded.lastSeq, hash: encoded.lastHash })}\n`,
    );
    const status = [];
    const raw = [];
    for (let rep = 0; rep <= repeats; rep += 1) {
      let t = performance.now();
      const read = await readRunState(dir, 'scale');
      if (read.issue !== null || read.events !== target || read.refused !== 0)
        throw new Error(
          `bench: the mixed log did not fold cleanly (${read.refused} refused, issue ${JSON.stringify(read.issue)})`,
        );
      const statusMs = performance.now() - t;
      t = performance.now();
      let n = 0;
      const rl = createInterface({ input: createReadStream(log), crlfDelay: Number.POSITIVE_INFINITY });
      for await (const line of rl) {
        JSON.parse(line);
        n += 1;
      }
      if (n !== target) throw new Error('bench: readline lost lines');
      const rawMs = performance.now() - t;
      if (rep > 0) {
        // the first pair warms up
        status.push(statusMs);
        raw.push(rawMs);
      }
    }
    const ratios = status.map((s, k) => raw[k] / s);
    return {
      events: target,
      bytes: Buffer.byteLength(encoded.text),
      statusMs: median(status),
      statusRange: range(status),
      rawMs: median(raw),
      rawRange: range(raw),
      ratio: median(raw) / median(status),
      ratioRange: range(ratios),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
};

const fmtMs = (ms) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

export const SCALING_TITLE =
  'fold scaling: time ~ n^k, state-only fold (what status does after reading), sizes n, 2n, 4n (target k <= 1.25)';

export const printScalingRow = (s) => {
  const cells = s.sizes.map(
    (n, i) => `n=${n.toLocaleString('en')}: ${fmtMs(s.medians[i])} ms [${s.ranges[i].map(fmtMs).join('–')}]`,
  );
  console.log(
    `          ${s.name}: k = ${s.exponent.toFixed(2)} (pairwise ${s.slopes.map((x) => x.toFixed(2)).join(', ')})${s.exponent > 1.25 ? '  MISSES THE TARGET' : ''}`,
  );
  console.log(`            ${cells.join('; ')}`);
};

export const printStatusBench = (status) =>
  console.log(
    `status    ${status.events.toLocaleString('en')}-event mixed log (${(status.bytes / 1e6).toFixed(1)} MB): read + verify + fold ${fmtMs(status.statusMs)} ms [${status.statusRange.map(fmtMs).join('–')}]; readline + JSON.parse ${fmtMs(status.rawMs)} ms [${status.rawRange.map(fmtMs).join('–')}]; ratio ${status.ratio.toFixed(2)}× [${status.ratioRange.map((r) => r.toFixed(2)).join('–')}] (target ≥ 0.5×)`,
  );

/** Print each scenario as it is measured (the whole bench takes minutes), then the status read. */
export const printFoldScalingBench = async () => {
  console.log(SCALING_TITLE);
  runScalingBench(printScalingRow);
  printStatusBench(await runStatusBench());
};

if (import.meta.url === `file://${process.argv[1]}`) await printFoldScalingBench();
