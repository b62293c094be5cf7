// `npm run bench`: every benchmark, printed for a person. Not part of `npm test`.
import os from 'node:os';
import { coldStartBench, printColdStartBench } from './coldstart.mjs';
import { printCompletionBench, runCompletionBench } from './completion.mjs';
import { runFoldBench } from './fold.mjs';
import { printFoldScalingBench } from './fold-scaling.mjs';
import { mcpStatusBench, printOperationsBench, recordPathBench } from './operations.mjs';
import { postgresBench, printPostgresBench } from './postgres.mjs';
import { appendBench, manyRunsBench, readBench } from './store.mjs';

const only = process.argv[2];
const wanted = (name) => only === undefined || only === name;
const fmt = (n) => Math.round(n).toLocaleString('en');
const line = (xs) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)} ms`;
console.log(
  `clearance benchmarks — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${os.platform()}\n`,
);

if (wanted('fold')) {
  const r = runFoldBench();
  console.log(
    `fold      ${fmt(r.events)} in-memory events (${fmt(r.runs)} runs) in ${r.ms.toFixed(0)} ms: ${fmt(r.eventsPerSecond)} events/s`,
  );
}
if (wanted('fold-scaling')) await printFoldScalingBench();
if (wanted('append')) {
  const r = await appendBench();
  const ms = (xs) => `${r.ranged(xs, 3)} ms`;
  console.log(
    `append    anchor: synchronous writeSync+fsyncSync of one line (${line(r.rawMs)}); ratios are anchor time / append time, ranges over repeats`,
  );
  console.log(
    `          one durable append, 13-event run: ${ms(r.ms.small)}; ratio ${r.ranged(r.single)}× (target ≥ 0.5×)`,
  );
  console.log(
    `          one durable append, 10,000-event run: ${ms(r.ms.large)}; ratio ${r.ranged(r.singleLarge)}×`,
  );
  console.log(
    `          cost at 10,000 events / at 13: ${r.ranged(r.growth)}× in process, ${r.ranged(r.growthFresh)}× with the checkpoint read from disk as a fresh CLI process does (target ≤ 1.5×)`,
  );
  console.log(
    `          one append with the checkpoint read from disk, 13-event run: ${ms(r.ms.smallFresh)}; ratio ${r.ranged(r.fresh)}×`,
  );
  console.log(
    `          appendBatch of 10 (per append, each fsynced): ${ms(r.ms.batch)}; ratio ${r.ranged(r.batch)}× (target ≥ 0.8×)`,
  );
}
if (wanted('runs')) {
  const r = await manyRunsBench();
  console.log(
    `runs      clearance status over ${fmt(r.runs)} runs: ${r.allMs.toFixed(0)} ms; status <run>: ${r.oneMs.toFixed(0)} ms; ratio ${r.ranged(r.ratios)}× (target ≤ 5×)`,
  );
  console.log(
    `          clearance verify over ${fmt(r.runs)} runs (every byte, no checkpoint): ${r.verifyMs.toFixed(0)} ms; ratio ${r.ranged(r.verifyRatios)}×`,
  );
  if (r.rss !== null)
    console.log(
      `          max RSS: status (all) ${r.rss.status.toFixed(0)} MB, verify (all) ${r.rss.verify.toFixed(0)} MB, status <run> ${r.rss.one.toFixed(0)} MB`,
    );
}
if (wanted('read')) {
  const r = await readBench();
  console.log(
    `read      ${fmt(r.events)} events (${(r.bytes / 1e6).toFixed(1)} MB); readline + JSON.parse: ${fmt(r.rawRate)} lines/s`,
  );
  console.log(
    `          read + verify (UTF-8, JSON, decode, seq, chain, head): ${fmt(r.verifyRate)} events/s, ratio ${r.ratio.toFixed(2)}× (target ≥ 0.6×)`,
  );
  console.log(
    `          read + verify + fold (what status and verify do): ${fmt(r.clearanceRate)} events/s, ratio ${r.foldedRatio.toFixed(2)}×`,
  );
}
if (wanted('cold')) printColdStartBench(coldStartBench());
if (wanted('completion')) printCompletionBench(await runCompletionBench());
if (wanted('postgres')) printPostgresBench(await postgresBench());
if (wanted('ops')) printOperationsBench(recordPathBench(), await mcpStatusBench());
