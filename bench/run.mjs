// `npm run bench`: every benchmark, printed for a person. Not part of `npm test`.
import os from 'node:os';
import { coldStartBench, printColdStartBench } from './coldstart.mjs';
import { printCompletionBench, runCompletionBench } from './completion.mjs';
import { runFoldBench } from './fold.mjs';
import { printFoldScalingBench } from './fold-scaling.mjs';
import { mcpHttpStatusBench, mcpStatusBench, printOperationsBench, recordPathBench } from './operations.mjs';
import { peersBench, printPeersBench } from './peers.mjs';
import { postgresBench, printPostgresBench } from './postgres.mjs';
import { appendBench, concurrentBench, lockAlternativesBench, manyRunsBench, readBench } from './store.mjs';

const only = process.argv[2];
const wanted = (name) => only === undefined || only === name;
const fmt = (n) => Math.round(n).toLocaleString('en');
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
    `append    anchor: synchronous writeSync+fsyncSync of one line, round-robin over ${r.runs} files (${ms(r.rawMs)}); ratio = anchor time / append time, medians of ${r.rounds} interleaved operations, ranges over ${r.repeats} repeats`,
  );
  console.log(
    `          one durable append, round-robin over ${r.runs} 13-event runs: ${ms(r.ms.single)}; ratio ${r.ranged(r.single)}× (target ≥ 0.5×)`,
  );
  console.log(
    `          the same, the checkpoint read from disk as a fresh CLI process does: ${ms(r.ms.fresh)}; ratio ${r.ranged(r.fresh)}×`,
  );
  console.log(
    `          appendBatch of 10 (per append, each fsynced before the next): ${ms(r.ms.batch)}; ratio ${r.ranged(r.batch)}× (target ≥ 0.8×)`,
  );
  console.log(
    `          one durable append to a 10,000-event run: ${ms(r.ms.large)}; ratio ${r.ranged(r.singleLarge)}×; cost at 10,000 events / at 13: ${r.ranged(r.growth)}× (target ≤ 1.5×)`,
  );
  if (r.before === null)
    console.log(
      '          (set CLEARANCE_BENCH_BEFORE_LIB=<an older build>/lib to measure it beside this one)',
    );
  else {
    console.log(
      `          before (${r.before}): one append ${ms(r.ms.singleBefore)}, ratio ${r.ranged(r.singleBefore)}×; appendBatch of 10 ${ms(r.ms.batchBefore)}, ratio ${r.ranged(r.batchBefore)}×`,
    );
    console.log(
      `          this build against it: one append ${r.ranged(r.singleSpeedup)}× faster, appendBatch ${r.ranged(r.batchSpeedup)}× faster`,
    );
  }
}
if (wanted('concurrent')) {
  const r = await concurrentBench();
  const rate = (xs) => `${r.ranged(xs, 0)} appends/s`;
  console.log(
    `concurrent ${r.writers} processes appending ${r.count} events each to one run, ranges over ${r.repeats} interleaved repeats:`,
  );
  console.log(`          this build: ${rate(r.rates.after)}`);
  if (r.speedup === null)
    console.log(
      "          (set CLEARANCE_BENCH_BEFORE_LIB=<an older build>/lib to measure today's figure beside it; target ≥ 3× it)",
    );
  else
    console.log(
      `          before (${r.before}): ${rate(r.rates.before)}; this build ${r.ranged(r.speedup)}× it (target ≥ 3×)`,
    );
  console.log(
    `          ${r.writers} processes doing the anchor's writeSync+fsyncSync to one file: ${rate(r.rates.raw)}; this build ${r.ranged(r.ofRaw)}× it`,
  );
}
if (wanted('locks')) {
  const r = await lockAlternativesBench();
  const ms = (xs) => `${r.ranged(xs, 3)} ms`;
  console.log(
    `locks     each around the anchor's writeSync+fsyncSync of one line, round-robin over 100 files (${ms(r.ms.raw)}); ratio = anchor / side, medians per repeat:`,
  );
  const named = {
    linkLock: "this build's lock: link() of the owner file, unlink() after",
    directoryLock: "the lock before: proper-lockfile's mkdir + owner file, both removed after",
    tmpfsDirectoryLock: 'that directory lock on /dev/shm (excludes only processes sharing that tmpfs)',
    fdatasync: 'the anchor with fdatasync instead of fsync (the size must still be synced)',
    ofdLock: 'an OFD lock (fcntl F_OFD_SETLK, fs-native-extensions) on the log itself',
  };
  for (const [name, text] of Object.entries(named))
    if (r.ms[name] !== undefined)
      console.log(`          ${text}: ${ms(r.ms[name])}; ratio ${r.ranged(r.ratios[name])}×`);
  if (!r.ofd) console.log('          (OFD lock: npm install --no-save fs-native-extensions to measure it)');
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
if (wanted('ops'))
  printOperationsBench(recordPathBench(), await mcpStatusBench(), await mcpHttpStatusBench());
if (wanted('peers')) printPeersBench(await peersBench());
