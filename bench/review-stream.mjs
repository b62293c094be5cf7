// The review loop both sides of the peer benchmark store: a run opened, then rounds, each a
// revision captured and a round report of about 1.7 KB (three findings opened, the three of the
// round before decided fixed, their files touched), so findings open and close as in a real loop
// and the run stays open. Clearance appends these events; Emmett appends the same `data` as JSON.
import { findingId, PRESETS, roundRecorded } from '../lib/index.js';

const PER_ROUND = 3;

const candidateOf = (round, k) => ({
  file: `src/service/module-${round}-${k}.ts`,
  line: 40 + k * 17,
  category: k % 2 === 0 ? 'correctness' : 'reliability',
  summary: `round ${round} finding ${k}: the connection is not released when the request is aborted`,
  severity: 'major',
  confirmed: true,
  evidence: `Abort the request after the headers arrive (curl --max-time 0.1): lsof shows one more socket on each retry, and after 1,024 retries the pool refuses new connections (${round}.${k}): the finally block never runs on abort.`,
});

/** The run's first event: a policy with room for every round the benchmark appends. */
export const openedEvent = (runId) => ({
  type: 'run.opened',
  data: {
    runId,
    policy: { ...PRESETS.default, maxRounds: 100_000 },
    subject: { repo: '.' },
    consent: { by: 'bench' },
  },
});

/** Round `round`'s two events: its capture (touching the files of the round before) and its report. */
export const roundEvents = (runId, round) => {
  const inputSha = `${runId}-${round}`.padEnd(40, '0').slice(0, 40);
  const before = round > 1 ? Array.from({ length: PER_ROUND }, (_, k) => candidateOf(round - 1, k)) : [];
  const candidates = Array.from({ length: PER_ROUND }, (_, k) => candidateOf(round, k));
  const decisions = before.map((c) => ({
    id: findingId(c),
    status: 'fixed',
    evidence: `round ${round}: the socket is released on abort; the reproduction passes at this revision`,
  }));
  return [
    {
      type: 'revision.captured',
      data: { round, inputSha, touchedFiles: before.map((c) => c.file), renames: [] },
    },
    roundRecorded({ runId, round, inputSha, completed: true, candidates, decisions }),
  ];
};

/** A whole stream of `count` events (count odd: the opening, then whole rounds). */
export const reviewStream = (runId, count) => {
  const events = [openedEvent(runId)];
  for (let round = 1; events.length < count; round += 1) events.push(...roundEvents(runId, round));
  return events.slice(0, count);
};
