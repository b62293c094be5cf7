// Fold throughput: 100,000 in-memory events, folded run by run as a CI gate or an auditor would.
import { createDecider, findingId, fold, PRESETS, roundRecorded } from '../lib/index.js';

const { evolve } = createDecider();

const candidate = (r, i, severity) => ({
  file: `src/module-${i % 7}.ts`,
  line: 10 + i,
  category: i % 2 === 0 ? 'correctness' : 'tests',
  summary: `round ${r} finding ${i}: the handle is not closed on the error path`,
  severity,
  confirmed: true,
  evidence:
    'Reproduced: open a connection, abort the request, observe the descriptor count grow by one.'.repeat(3),
});

/** One realistic run: 4 rounds, a failed attempt each round, majors and nits, decisions on touched files. */
export const realisticRun = (runId) => {
  const events = [
    {
      type: 'run.opened',
      data: { runId, policy: PRESETS.default, subject: { repo: '.' }, consent: { by: 'bench' } },
    },
  ];
  const open = new Map();
  for (let round = 1; round <= 4; round += 1) {
    const inputSha = `${runId}-${round}`.padEnd(40, '0');
    const touched = [0, 1, 2, 3, 4, 5, 6]
      .filter((i) => (i + round) % 2 === 0)
      .map((i) => `src/module-${i}.ts`);
    events.push({ type: 'revision.captured', data: { round, inputSha, touchedFiles: touched, renames: [] } });
    events.push({
      type: 'round.failed',
      data: { round, inputSha, reason: 'timeout', detail: 'no report within 600000 ms' },
    });
    const decisions = [];
    for (const [id, c] of open) {
      if (round > 1 && touched.includes(c.file)) {
        const fixed = round === 4 || c.severity === 'nit';
        decisions.push({ id, status: fixed ? 'fixed' : 'open', evidence: 'checked at this revision' });
        if (fixed) open.delete(id);
      }
    }
    const candidates =
      round === 1
        ? [
            ...[0, 1, 2, 3, 4].map((i) => candidate(round, i, 'major')),
            ...[5, 6, 7].map((i) => candidate(round, i, 'nit')),
          ]
        : round === 2
          ? [candidate(round, 8, 'major')]
          : [];
    for (const c of candidates) open.set(findingId(c), c);
    events.push(roundRecorded({ runId, round, inputSha, completed: true, candidates, decisions }));
  }
  return events;
};

export const runFoldBench = () => {
  const runs = [];
  let total = 0;
  for (let i = 0; total < 100_000; i += 1) {
    const run = realisticRun(`bench-${i}`);
    runs.push(run);
    total += run.length;
  }
  // warm up once, then measure
  for (const run of runs.slice(0, 200)) fold(evolve, run);
  const started = performance.now();
  let converged = 0;
  let refused = 0;
  for (const run of runs) {
    const { state, trail } = fold(evolve, run);
    if (state.status !== 'open') converged += 1;
    refused += trail.filter((t) => t.rejection !== null).length;
  }
  const ms = performance.now() - started;
  if (refused > 0) throw new Error(`bench: ${refused} events were refused; the generated runs are wrong`);
  return {
    events: total,
    runs: runs.length,
    finalRuns: converged,
    ms,
    eventsPerSecond: Math.round((total / ms) * 1000),
  };
};
