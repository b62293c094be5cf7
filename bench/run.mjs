// `npm run bench`: every benchmark, printed for a person. Not part of `npm test`.
import os from 'node:os';
import { runFoldBench } from './fold.mjs';

const only = process.argv[2];
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${os.platform()}`;
console.log(`clearance benchmarks — ${machine}\n`);

if (only === undefined || only === 'fold') {
  const r = runFoldBench();
  console.log(
    `fold: ${r.events.toLocaleString('en')} events in ${r.runs.toLocaleString('en')} runs folded in ${r.ms.toFixed(0)} ms`,
  );
  console.log(`      ${r.eventsPerSecond.toLocaleString('en')} events/s (${r.finalRuns} runs final)`);
}
