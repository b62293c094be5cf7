// PostgreSQL store benchmark: durable appends per second through the store (one transaction under
// the run's row lock: read, fold, check, insert, move the head) against a raw single-row INSERT
// transaction of the same line, with 1 and with 8 concurrent writers. The server is a real,
// throwaway one with fsync on; the two sides are interleaved in windows, and ranges are over repeats.
import pg from 'pg';
import { openPostgresStore } from '../lib/store/postgres/index.js';
import { initSchema } from '../lib/store/postgres/schema.js';
import { startPostgres } from '../scripts/postgres-server.mjs';
import { realisticRun } from './fold.mjs';

const failedAttempt = (round, inputSha, i) => ({
  type: 'round.failed',
  data: { round, inputSha, reason: 'timeout', detail: `attempt ${i}: no report within 600000 ms` },
});

const range = (xs) =>
  `${Math.round(Math.min(...xs)).toLocaleString('en')}–${Math.round(Math.max(...xs)).toLocaleString('en')}`;

export const postgresBench = async ({ windows = 4, perWindow = 150 } = {}) => {
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
    // each writer appends round-robin to runs of its own (a 4-round history, still open), as a
    // fleet of CI jobs would, so no run grows past what a real one holds (as bench/store.mjs does)
    const PER_WRITER = 40;
    const runs = [];
    for (let w = 0; w < 8; w += 1) {
      const mine = [];
      for (let r = 0; r < PER_WRITER; r += 1) {
        const id = `bench-${w}-${r}`;
        const history = realisticRun(id).slice(0, 12);
        await stores[w].openRun(history[0].data, { by: 'bench' });
        await stores[w].append(id, history.slice(1), { by: 'bench' });
        mine.push({ id, inputSha: history[10].data.inputSha });
      }
      runs.push(mine);
    }
    const line = JSON.stringify({
      seq: 14,
      type: 'round.failed',
      v: 1,
      at: new Date().toISOString(),
      by: 'bench',
      prev: '0'.repeat(64),
      data: failedAttempt(4, runs[0][0].inputSha, 0).data,
    });
    let attempt = 0;
    const appendWindow = async (writers) => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWindow / writers; i += 1) {
            const run = runs[w][attempt % PER_WRITER];
            await stores[w].append(run.id, [failedAttempt(4, run.inputSha, attempt++)], { by: 'bench' });
          }
        }),
      );
      return perWindow / ((performance.now() - started) / 1000);
    };
    const rawWindow = async (writers) => {
      const started = performance.now();
      await Promise.all(
        Array.from({ length: writers }, async (_, w) => {
          for (let i = 0; i < perWindow / writers; i += 1) {
            await raws[w].query('BEGIN');
            await raws[w].query('INSERT INTO raw (line) VALUES ($1)', [line]);
            await raws[w].query('COMMIT');
          }
        }),
      );
      return perWindow / ((performance.now() - started) / 1000);
    };
    const result = {};
    for (const writers of [1, 8]) {
      const appendRates = [];
      const rawRates = [];
      const ratios = [];
      for (let i = 0; i < windows; i += 1) {
        const raw = await rawWindow(writers);
        const appended = await appendWindow(writers);
        rawRates.push(raw);
        appendRates.push(appended);
        ratios.push(appended / raw);
      }
      result[writers] = { appendRates, rawRates, ratios };
    }
    return result;
  } finally {
    for (const s of stores) await s.close().catch(() => undefined);
    for (const r of raws) await r.end().catch(() => undefined);
    await server.stop();
  }
};

export const printPostgresBench = (result) => {
  for (const writers of [1, 8]) {
    const r = result[writers];
    console.log(
      `postgres  ${writers} writer(s): append ${range(r.appendRates)}/s; raw INSERT transaction ${range(r.rawRates)}/s; ratio ${Math.min(...r.ratios).toFixed(2)}–${Math.max(...r.ratios).toFixed(2)}×`,
    );
  }
};

if (import.meta.url === `file://${process.argv[1]}`) printPostgresBench(await postgresBench());
