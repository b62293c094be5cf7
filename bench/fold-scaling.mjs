// Fold scaling: how the cost of folding grows with the run, in each dimension the issue names:
// events (a mixed log of every kind), findings, rounds (with 1,000 open findings) and stage events,
// and the other accumulations (failed attempts, captures, ended rounds and extensions, rulings).
// Each scenario times only the part that grows with n (a fixed set-up, such as the round that
// opens 1,000 findings, is folded once, untimed), so the exponent is the marginal cost's (target
// k <= 1.1). Then the 100,000-event mixed log: `status` and `verify`, each beside readline +
// JSON.parse of the same file (targets >= 0.5x and >= 0.4x). Sizes and sides are interleaved;
// each figure is a median over repeats, with the range printed beside it.
import { createReadStream, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import {
  createDecider,
  encodeEvents,
  findingId,
  operations,
  PRESETS,
  roundRecorded,
  ZERO_HASH,
} from '../lib/index.js';
import { checkpointOf } from '../lib/store/catch-up.js';
import { forgetCheckpoints, writeCheckpoint } from '../lib/store/checkpoint.js';
import { foldRunFile } from '../lib/store/read.js';
import { fileStore } from '../lib/store/store.js';

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

/**
 * The scenarios: each builds a valid log whose size grows with n in one dimension, and says how
 * many of its first events are set-up (folded once, untimed: `from`).
 */
export const SCENARIOS = {
  'events (the mixed log of every kind)': (n) => ({ events: mixedLog(n), from: 0 }),
  'stage events': (n) => {
    const events = [opened(), captured(1)];
    for (let i = 0; i < n / 2; i += 1) events.push(stageStarted, stageFailed(i));
    return { events, from: 2 };
  },
  'failed attempts': (n) => {
    const events = [opened(), captured(1)];
    for (let i = 0; i < n; i += 1)
      events.push({
        type: 'round.failed',
        data: { round: 1, inputSha: 'in-1', reason: 'timeout', detail: `attempt ${i}` },
      });
    return { events, from: 2 };
  },
  captures: (n) => {
    const events = [opened()];
    for (let i = 0; i < n; i += 1)
      events.push({ ...captured(1), data: { ...captured(1).data, inputSha: `push-${i}` } });
    return { events, from: 1 };
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
    return { events, from: 1 };
  },
  'findings (5 opened a round, each decided twice)': (n) => ({ events: accumulating(n / 5), from: 0 }),
  'rounds, 1,000 open findings untouched': (n) => {
    const cands = Array.from({ length: 1000 }, (_, i) => finding(i));
    const events = [opened(n + 2), captured(1), recorded(1, cands)];
    for (let r = 2; r <= n; r += 1) events.push(captured(r), recorded(r));
    return { events, from: 3 };
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
    return { events, from: 3 };
  },
  'rounds ended and extensions': (n) => {
    const cands = [finding(0)];
    const events = [opened(1), captured(1), recorded(1, cands)];
    for (let r = 2; r <= n / 3; r += 1)
      events.push({ type: 'rounds.extended', data: { rounds: 1, why: 'one more', by: 'Ada' } }, captured(r), {
        type: 'round.ended',
        data: { round: r, result: 'none', reason: 'nothing to review' },
      });
    return { events, from: 3 };
  },
  'rulings (20,000 findings, n ruled)': (n) => {
    const cands = Array.from({ length: 20_000 }, (_, i) => finding(i));
    const events = [opened(1), captured(1), recorded(1, cands)];
    for (let i = 0; i < n; i += 1)
      events.push({
        type: 'finding.ruled',
        data: { findingId: findingId(cands[i]), status: 'withdrawn', why: 'accepted risk', by: 'Ada' },
      });
    return { events, from: 3 };
  },
};

/** The state-only fold `status` does: each event through `evolve`, refusals counted, nothing kept. */
const { evolve, initialState } = createDecider();
const foldState = (events, state = initialState) => {
  let refused = 0;
  for (const event of events) {
    const after = evolve(state, event);
    if (after._tag === 'Left') refused += 1;
    else state = after.right;
  }
  if (refused > 0) throw new Error(`bench: ${refused} events were refused; the scenario is wrong`);
  return state;
};

/** A scenario's log, its set-up folded once: what the timed fold starts from, and what it folds. */
const prepared = ({ events, from }) => ({
  start: foldState(events.slice(0, from)),
  rest: events.slice(from),
});

/**
 * One timed fold: wall time, and the process's CPU time (the fold is synchronous, so on a machine
 * shared with other work the CPU time is the steadier figure; on a quiet one they agree).
 */
const timeFold = ({ start, rest }) => {
  const cpu = process.cpuUsage();
  const t = performance.now();
  foldState(rest, start);
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
};

const exponentOf = (sizes, medians) => ({
  exponent: Math.log(medians.at(-1) / medians[0]) / Math.log(sizes.at(-1) / sizes[0]),
  slopes: sizes.slice(1).map((n, i) => Math.log(medians[i + 1] / medians[i]) / Math.log(n / sizes[i])),
});

/** The exponent k in time ~ n^k, measured at sizes n, 2n, 4n, interleaved over repeats. */
export const measureExponent = (build, sizes, repeats = Number(process.env.BENCH_REPEATS ?? 5)) => {
  const logs = sizes.map((n) => prepared(build(n)));
  const counts = logs.map((l) => l.rest.length);
  for (const log of logs) timeFold(log); // warm up
  const times = sizes.map(() => []);
  const cpu = sizes.map(() => []);
  for (let rep = 0; rep < repeats; rep += 1)
    for (const [i, log] of logs.entries()) {
      const t = timeFold(log);
      times[i].push(t.wall);
      cpu[i].push(t.cpu);
    }
  const medians = times.map(median);
  const cpuMedians = cpu.map(median);
  return {
    sizes,
    counts,
    medians,
    ranges: times.map(range),
    ...exponentOf(sizes, medians),
    cpuMedians,
    cpu: exponentOf(sizes, cpuMedians),
  };
};

export const runScalingBench = (onEach = () => undefined) => {
  const sizes = {
    'events (the mixed log of every kind)': [12_500, 25_000, 50_000],
    'stage events': [20_000, 40_000, 80_000],
    'failed attempts': [20_000, 40_000, 80_000],
    captures: [20_000, 40_000, 80_000],
    'findings (opened, then 4 rounds deciding all)': [2_000, 4_000, 8_000],
    // 200, 400 and 800 rounds
    'findings (5 opened a round, each decided twice)': [1_000, 2_000, 4_000],
    'rounds, 1,000 open findings untouched': [2_000, 4_000, 8_000],
    'rounds, 1,000 open findings, 10 decided each round': [500, 1_000, 2_000],
    'rounds ended and extensions': [30_000, 60_000, 120_000],
    'rulings (20,000 findings, n ruled)': [2_500, 5_000, 10_000],
  };
  return Object.entries(SCENARIOS).map(([name, build]) => {
    const measured = { name, ...measureExponent(build, sizes[name]) };
    onEach(measured);
    return measured;
  });
};

/**
 * A legal run of every kind of event, each round shaped like a real one: a stale capture and the
 * real one, two stages failing and restarting (20 stage events), a failed collection attempt, then
 * the report: 5 new findings, and decisions on the 5 opened two rounds before (their files were
 * touched), 3 fixed and 2 kept open for one more round. So findings accumulate, about 5 a round,
 * and each round decides about 5. Without `lifecycle`, the rounds are the capture and the report.
 */
const reviewLog = (enough, lifecycle = true) => {
  const events = [opened(1_000_000)];
  const byRound = new Map();
  let keep = []; // decided open last round: touched again and fixed this round
  let i = 0;
  for (let round = 1; !enough(events, round); round += 1) {
    const fresh = byRound.get(round - 2) ?? [];
    const due = [...fresh, ...keep];
    if (lifecycle)
      events.push({ ...captured(round), data: { ...captured(round).data, inputSha: `stale-${round}` } });
    events.push(
      captured(
        round,
        due.map((f) => f.file),
      ),
    );
    if (lifecycle) {
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
    }
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
  return events;
};

/** The mixed log, cut at `target` events. */
const mixedLog = (target) => reviewLog((events) => events.length >= target).slice(0, target);

/** `rounds` rounds of the same shape, capture and report only: 5 findings opened a round. */
const accumulating = (rounds) => reviewLog((_, round) => round > rounds, false);

const readlineParse = async (log) => {
  let n = 0;
  const rl = createInterface({ input: createReadStream(log), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of rl) {
    JSON.parse(line);
    n += 1;
  }
  return n;
};

/** A store holding the run `scale` as `encoded`, with the fold checkpoint an appender leaves, or none. */
const storeOf = async (dir, encoded, withCheckpoint) => {
  const runs = path.join(dir, 'runs');
  await mkdir(runs, { recursive: true });
  await writeFile(path.join(runs, 'scale.jsonl'), encoded.text);
  await writeFile(
    path.join(runs, 'scale.head'),
    `${JSON.stringify({ seq: encoded.lastSeq, hash: encoded.lastHash })}\n`,
  );
  if (withCheckpoint) {
    const read = foldRunFile(dir, 'scale');
    const file = statSync(path.join(runs, 'scale.jsonl'));
    writeCheckpoint(
      path.join(runs, 'scale.fold'),
      checkpointOf(read, { ino: file.ino, ctimeMs: file.ctimeMs }),
    );
  }
  return { log: path.join(runs, 'scale.jsonl'), context: { store: fileStore(dir), by: 'bench' } };
};

/**
 * The 100,000-event mixed log read as the commands read it, each side interleaved with the
 * anchor (readline + JSON.parse of the same file) in every repeat; each ratio is the anchor's time
 * over the side's, per repeat. `status` from the start: no checkpoint (the operation reads,
 * verifies and folds every line, then builds its view); `verify`: every byte, no checkpoint ever;
 * `status` from the checkpoint an appender leaves beside the log (only its state is read). And a
 * long-lived run (1,000 rounds, 5,000 findings, each decided twice), `status` with no checkpoint,
 * beside readline + JSON.parse of its own file.
 */
export const runStatusBench = async (target = 100_000, repeats = Number(process.env.BENCH_REPEATS ?? 5)) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'clearance-fold-bench-'));
  try {
    const encoded = encodeEvents(
      mixedLog(target),
      { seq: 0, hash: ZERO_HASH },
      { at: new Date().toISOString(), by: 'bench' },
    );
    const bare = await storeOf(path.join(root, 'bare'), encoded, false);
    const kept = await storeOf(path.join(root, 'kept'), encoded, true);
    const longEvents = accumulating(1_000);
    const longLived = encodeEvents(longEvents, { seq: 0, hash: ZERO_HASH }, { at: '', by: 'bench' });
    const long = await storeOf(path.join(root, 'long'), longLived, false);
    // the same run as its own appends leave it: its last 200 events appended one by one, so the
    // checkpoint's state lags the end by what the appends' cadence left
    const upTo = encodeEvents(
      longEvents.slice(0, -200),
      { seq: 0, hash: ZERO_HASH },
      { at: '', by: 'bench' },
    );
    const longKept = await storeOf(path.join(root, 'long-kept'), upTo, false);
    await longKept.context.store.append('scale', [], { by: 'bench' });
    for (const event of longEvents.slice(-200))
      await longKept.context.store.append('scale', [event], { by: 'bench' });
    const sides = {
      raw: async () => {
        if ((await readlineParse(bare.log)) !== target) throw new Error('bench: readline lost lines');
      },
      longLivedRaw: async () => {
        if ((await readlineParse(long.log)) !== longLived.lastSeq)
          throw new Error('bench: readline lost lines');
      },
      longLivedFromCheckpoint: async () => {
        // as a fresh process: the checkpoint file, never this process's memory
        forgetCheckpoints();
        const view = await operations.status(longKept.context, { runId: 'scale' });
        if (view.seq !== longLived.lastSeq) throw new Error(`bench: status read ${view.seq} events`);
      },
      longLived: async () => {
        const view = await operations.status(long.context, { runId: 'scale' });
        if (view.seq !== longLived.lastSeq) throw new Error(`bench: status read ${view.seq} events`);
      },
      status: async () => {
        const view = await operations.status(bare.context, { runId: 'scale' });
        if (view.seq !== target) throw new Error(`bench: status read ${view.seq} events`);
      },
      verify: async () => {
        const result = await operations.verify(bare.context, { runId: 'scale' });
        if (result.runs[0]?.events !== target || result.runs[0]?.refused !== 0)
          throw new Error('bench: the mixed log did not verify cleanly');
      },
      statusFromCheckpoint: async () => {
        const view = await operations.status(kept.context, { runId: 'scale' });
        if (view.seq !== target) throw new Error(`bench: status read ${view.seq} events`);
      },
    };
    const ms = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
    for (let rep = 0; rep <= repeats; rep += 1) {
      for (const [name, side] of Object.entries(sides)) {
        const t = performance.now();
        await side();
        // the first round warms up
        if (rep > 0) ms[name].push(performance.now() - t);
      }
    }
    const ratios = (name, anchor = 'raw') => ms[anchor].map((raw, k) => raw / ms[name][k]);
    return {
      longLived: { events: longLived.lastSeq, bytes: Buffer.byteLength(longLived.text) },
      events: target,
      bytes: Buffer.byteLength(encoded.text),
      ms,
      medians: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, median(v)])),
      ranges: Object.fromEntries(Object.entries(ms).map(([k, v]) => [k, range(v)])),
      ratios: {
        status: ratios('status'),
        verify: ratios('verify'),
        statusFromCheckpoint: ratios('statusFromCheckpoint'),
        longLived: ratios('longLived', 'longLivedRaw'),
        longLivedFromCheckpoint: ratios('longLivedFromCheckpoint', 'longLivedRaw'),
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};

const fmtMs = (ms) => (ms < 10 ? ms.toFixed(2) : ms.toFixed(0));

export const SCALING_TITLE =
  'fold scaling: time ~ n^k of the part that grows with n, state-only fold (what status does after reading), sizes n, 2n, 4n, wall time and CPU time (target k <= 1.1)';

export const printScalingRow = (s) => {
  const cells = s.sizes.map(
    (n, i) => `n=${n.toLocaleString('en')}: ${fmtMs(s.medians[i])} ms [${s.ranges[i].map(fmtMs).join('–')}]`,
  );
  const k = (e) => `k = ${e.exponent.toFixed(2)} (pairwise ${e.slopes.map((x) => x.toFixed(2)).join(', ')})`;
  const misses = s.exponent > 1.1 && s.cpu.exponent > 1.1;
  console.log(
    `          ${s.name}: wall ${k(s)}; CPU ${k(s.cpu)}${misses ? '  MISSES THE TARGET' : s.exponent > 1.1 || s.cpu.exponent > 1.1 ? '  (one of the two over 1.1)' : ''}`,
  );
  console.log(`            ${cells.join('; ')}; CPU ${s.cpuMedians.map(fmtMs).join(', ')} ms`);
};

const ratioText = (xs, target) => {
  const [lo, hi] = range(xs);
  const met = median(xs) >= target ? '' : '  MISSES THE TARGET';
  return `${median(xs).toFixed(2)}× [${lo.toFixed(2)}–${hi.toFixed(2)}]${target === null ? '' : ` (target ≥ ${target}×)${met}`}`;
};

export const printStatusBench = (r) => {
  const side = (name) => `${fmtMs(r.medians[name])} ms [${r.ranges[name].map(fmtMs).join('–')}]`;
  console.log(
    `status    ${r.events.toLocaleString('en')}-event mixed log (${(r.bytes / 1e6).toFixed(1)} MB), ${r.ms.raw.length} interleaved repeats; anchor readline + JSON.parse ${side('raw')}`,
  );
  console.log(
    `          status, no checkpoint (read, verify, fold every line, the view): ${side('status')}; ratio ${ratioText(r.ratios.status, 0.5)}`,
  );
  console.log(
    `          verify (every byte, the archive): ${side('verify')}; ratio ${ratioText(r.ratios.verify, 0.4)}`,
  );
  console.log(
    `          status from the checkpoint an appender leaves: ${side('statusFromCheckpoint')}; ratio ${ratioText(r.ratios.statusFromCheckpoint, null)}`,
  );
  console.log(
    `          a long-lived run (1,000 rounds, 5,000 findings; ${r.longLived.events.toLocaleString('en')} events, ${(r.longLived.bytes / 1e6).toFixed(1)} MB), status with no checkpoint: ${side('longLived')} against readline + JSON.parse of its file ${side('longLivedRaw')}; ratio ${ratioText(r.ratios.longLived, null)}`,
  );
  console.log(
    `          the same run as its appends leave it, status from its checkpoint (its state, then the lines after it): ${side('longLivedFromCheckpoint')}; ratio ${ratioText(r.ratios.longLivedFromCheckpoint, 0.5)}`,
  );
};

/** Print each scenario as it is measured (the whole bench takes minutes), then the status read. */
export const printFoldScalingBench = async () => {
  console.log(SCALING_TITLE);
  runScalingBench(printScalingRow);
  printStatusBench(await runStatusBench());
};

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === 'status') printStatusBench(await runStatusBench());
  else await printFoldScalingBench();
}
