// PostgreSQL store benchmark, on a real throwaway server with fsync on (Unix socket). Every side is
// measured interleaved in one run, and every figure is a ratio within one repeat; the ranges are
// over repeats.
//
// - Length: one durable append to a 13-event run and to a 10,000-event run (round-robin over 16
//   of each, so both sides touch their rows alike and no short run grows much), against the
//   anchor, a raw single-row INSERT transaction of the same line (BEGIN, INSERT, COMMIT). The
//   append folds from the run's checkpoint, so its cost should not grow with the run: the targets
//   are append at 10,000 ÷ append at 13 ≤ 1.3× (time), and append ÷ raw INSERT ≥ 0.7× (issue 32; 0.5× before it)
//   (throughput: the raw transaction's time over the append's).
// - Writers: 1 and 8 concurrent writers, each appending round-robin to 40 realistic runs of its
//   own (a fleet of CI jobs), against 1 and 8 raw INSERT writers.
import pg from 'pg';
import { encodeEvents, importLog, openRun, ZERO_HASH } from '../lib/index.js';
import { openPostgresStore, postgresStoreOn } from '../lib/store/postgres/index.js';
import { initSchema } from '../lib/store/postgres/tables.js';
import { startPostgres } from '../scripts/postgres-server.mjs';
import { realisticRun } from './fold.mjs';

const failedAttempt = (round, inputSha, i) => ({
  type: 'round.failed',
  data: { round, inputSha, reason: 'timeout', detail: `attempt ${i}: no report within 600000 ms` },
});

const range = (xs) =>
  `${Math.round(Math.min(...xs)).toLocaleString('en')}–${Math.round(Math.max(...xs)).toLocaleString('en')}`;
const ratios = (xs) => `${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)}×`;

/** A realistic run still open at round 4 (12 events), padded with failed attempts to `size`. */
const openRunOf = (runId, size) => {
  const events = realisticRun(runId).slice(0, 12);
  const inputSha = events[10].data.inputSha;
  for (let i = events.length; i < size; i += 1) events.push(failedAttempt(4, inputSha, i));
  return { events, inputSha };
};

/** A run loaded as `import` loads one: its lines checked whole, then inserted. */
const loadRun = async (store, runId, size) => {
  const { events, inputSha } = openRunOf(runId, size);
  const encoded = encodeEvents(
    events,
    { seq: 0, hash: ZERO_HASH },
    { at: new Date().toISOString(), by: 'bench' },
  );
  await importLog(store, runId, Buffer.from(encoded.text));
  return { id: runId, inputSha };
};

/** The line an append writes, for the anchor to insert: a round.failed of the same size. */
const lineLike = (inputSha) =>
  JSON.stringify({
    seq: 14,
    type: 'round.failed',
    v: 1,
    at: new Date().toISOString(),
    by: 'bench',
    prev: '0'.repeat(64),
    data: failedAttempt(4, inputSha, 0).data,
  });

export const postgresBench = async ({
  repeats = 7,
  window = 100,
  writerWindows = 4,
  perWindow = 160,
} = {}) => {
  const server = startPostgres({ durable: true });
  const stores = [];
  const raws = [];
  try {
    await server.ready;
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await initSchema(admin);
    await admin.query('CREATE TABLE raw (id bigserial PRIMARY KEY, line text NOT NULL)');
    await admin.end();
    for (let w = 0; w < 8; w += 1) {
      stores.push(await openPostgresStore(server.url));
      const raw = new pg.Client({ connectionString: server.url });
      await raw.connect();
      raws.push(raw);
    }
    let attempt = 0;
    const appendTo = (store, run) =>
      store.append(run.id, [failedAttempt(4, run.inputSha, attempt++)], { by: 'bench' });
    const rawInsert = async (client, line) => {
      await client.query('BEGIN');
      await client.query('INSERT INTO raw (line) VALUES ($1)', [line]);
      await client.query('COMMIT');
    };

    // length: 16 runs of 13 events and 16 of 10,000, each side appending round-robin to its own,
    // so both sides touch their rows alike and no short run grows much
    const [store] = stores;
    const RUNS = 16;
    const short = [];
    const long = [];
    for (let r = 0; r < RUNS; r += 1) short.push(await loadRun(store, `short-${r}`, 12));
    for (let r = 0; r < RUNS; r += 1) long.push(await loadRun(store, `long-${r}`, 9_999));
    const line = lineLike(long[0].inputSha);
    let nextShort = 0;
    let nextLong = 0;
    // a store over its own connection that holds no fold of any run, as a fresh CLI process: each
    // append folds the run from the database first (two round trips); the store above holds the
    // fold its own last write reached (one round trip, while the database confirms it)
    const freshClient = new pg.Client({ connectionString: server.url });
    await freshClient.connect();
    raws.push(freshClient);
    const sides = {
      raw: () => rawInsert(raws[0], line),
      short: () => appendTo(store, short[nextShort++ % RUNS]),
      long: () => appendTo(store, long[nextLong++ % RUNS]),
      fresh: () => appendTo(postgresStoreOn(freshClient), short[nextShort++ % RUNS]),
    };
    // warm up: each run's first append folds its imported lines whole and writes its checkpoint
    for (const run of [...short, ...long]) await appendTo(store, run);
    for (const side of Object.values(sides)) for (let i = 0; i < 20; i += 1) await side();
    // interleaved one operation at a time (raw, short, long, raw, …), so a change in the disk's or
    // the machine's mood moves every side of a repeat alike
    const ms = { raw: [], short: [], long: [], fresh: [] };
    for (let r = 0; r < repeats; r += 1) {
      const spent = { raw: 0, short: 0, long: 0, fresh: 0 };
      for (let i = 0; i < window; i += 1) {
        for (const [name, side] of Object.entries(sides)) {
          const started = performance.now();
          await side();
          spent[name] += performance.now() - started;
        }
      }
      for (const name of Object.keys(spent)) ms[name].push(spent[name] / window);
    }
    const length = {
      ms,
      growth: ms.long.map((l, r) => l / ms.short[r]),
      shortVsRaw: ms.raw.map((raw, r) => raw / ms.short[r]),
      longVsRaw: ms.raw.map((raw, r) => raw / ms.long[r]),
      freshVsRaw: ms.raw.map((raw, r) => raw / ms.fresh[r]),
      // the short runs take the held store's appends and the fresh store's
      shortEvents: 12 + 1 + Math.ceil((2 * (20 + repeats * window)) / RUNS),
      longEvents: 9_999 + 1 + Math.ceil((20 + repeats * window) / RUNS),
    };

    // writers: each appends round-robin to 40 realistic runs of its own (13 events, still open)
    const PER_WRITER = 40;
    const runs = [];
    for (let w = 0; w < 8; w += 1) {
      const mine = [];
      for (let r = 0; r < PER_WRITER; r += 1) {
        const id = `bench-${w}-${r}`;
        const history = realisticRun(id).slice(0, 12);
        await openRun(stores[w], history[0].data, { by: 'bench' });
        await stores[w].append(id, history.slice(1), { by: 'bench' });
        mine.push({ id, inputSha: history[10].data.inputSha });
      }
      runs.push(mine);
    }
    let turn = 0;
    const appendWindow = async (writers) => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWindow / writers; i += 1)
            await appendTo(stores[w], runs[w][turn++ % PER_WRITER]);
        }),
      );
      return perWindow / ((performance.now() - started) / 1000);
    };
    const rawWindow = async (writers) => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWindow / writers; i += 1) await rawInsert(raws[w], line);
        }),
      );
      return perWindow / ((performance.now() - started) / 1000);
    };
    const writers = {};
    for (const n of [1, 8]) {
      const appendRates = [];
      const rawRates = [];
      for (let i = 0; i < writerWindows; i += 1) {
        rawRates.push(await rawWindow(n));
        appendRates.push(await appendWindow(n));
      }
      writers[n] = { appendRates, rawRates, ratios: appendRates.map((a, i) => a / rawRates[i]) };
    }
    return { length, writers, repeats, window };
  } finally {
    for (const s of stores) await s.close().catch(() => undefined);
    for (const r of raws) await r.end().catch(() => undefined);
    await server.stop();
  }
};

const msRange = (xs) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)} ms`;

export const printPostgresBench = ({ length, writers, repeats, window }) => {
  const met = (xs, ok) => (xs.every(ok) ? 'met' : xs.some(ok) ? 'met in some repeats only' : 'NOT met');
  console.log(
    `postgres  anchor: a raw INSERT of the same line in its own transaction (${msRange(length.ms.raw)}); ${repeats} repeats of ${window}, interleaved`,
  );
  console.log(
    `          one durable append, 13-event runs (${length.shortEvents} at the end): ${msRange(length.ms.short)}; ratio ${ratios(length.shortVsRaw)} (target ≥ 0.7×: ${met(length.shortVsRaw, (x) => x >= 0.7)})`,
  );
  console.log(
    `          one durable append, 10,000-event runs (${length.longEvents.toLocaleString('en')} at the end): ${msRange(length.ms.long)}; ratio ${ratios(length.longVsRaw)}`,
  );
  console.log(
    `          the same from a store that holds no fold (a fresh process: fold, then write): ${msRange(length.ms.fresh)}; ratio ${ratios(length.freshVsRaw)}`,
  );
  console.log(
    `          append at 10,000 events ÷ at 13: ${ratios(length.growth)} (target ≤ 1.3×: ${met(length.growth, (x) => x <= 1.3)})`,
  );
  for (const n of [1, 8]) {
    const r = writers[n];
    console.log(
      `          ${n} writer(s), round-robin over 40 runs each: append ${range(r.appendRates)}/s; raw INSERT transaction ${range(r.rawRates)}/s; ratio ${ratios(r.ratios)}`,
    );
  }
};

if (import.meta.url === `file://${process.argv[1]}`) printPostgresBench(await postgresBench());
