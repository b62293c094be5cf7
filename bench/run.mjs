// `npm run bench`: every benchmark, printed for a person. Not part of `npm test`.
import os from 'node:os';
import { printCompletionBench, runCompletionBench } from './completion.mjs';
import { runFoldBench } from './fold.mjs';
import { printFoldScalingBench } from './fold-scaling.mjs';
import { appendBench, coldStartBench, readBench } from './store.mjs';

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
  console.log(
    `append    durable append (lock + read + fold + check + write + fsync): ${fmt(r.appendRate)}/s; raw write+fsync of the same bytes: ${fmt(r.rawRate)}/s; ratio ${r.ratio.toFixed(2)}× (target ≥ 0.5×)`,
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
if (wanted('cold')) {
  const r = await coldStartBench();
  console.log(
    `cold      clearance status: ${r.statusMs.toFixed(1)} ms; node -e 0: ${r.nodeMs.toFixed(1)} ms; ratio ${r.ratio.toFixed(2)}× (target ≤ 2.5×)`,
  );
}
if (wanted('completion')) printCompletionBench(await runCompletionBench());
