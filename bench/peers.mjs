// The peer benchmark: clearance's two stores beside Emmett's (@event-driven-io/emmett 0.42, its
// SQLite and PostgreSQL stores), the event store a TypeScript team would otherwise pick to keep a
// review loop's history. Both sides store the same events (bench/review-stream.mjs: a capture and
// a ~1.7 KB round report a round), the same `data` bytes, in one process, measured one operation
// of each side in turn (clearance, Emmett, clearance, …) in windows; each window's ratio is
// Emmett's time over clearance's (above 1: clearance is faster), and the ranges are over windows.
//
// - Append: one durable append of a round report to a stream at its expected version (clearance's
//   `expectedSeq`, Emmett's `expectedStreamVersion`), round-robin over `runs` streams; between two
//   report appends to a stream, the next round's capture is appended on both sides, untimed.
// - Read: a 1,001-event stream (the opening and 500 rounds) read into state. Clearance reads every
//   line (no checkpoint: the run was written or imported whole), checks the chain, decodes and
//   applies its rules; Emmett reads the rows and folds them with the evolve a team would write
//   for the same loop (open findings by id, decisions applied, the round), validating nothing.
//   Emmett folding with clearance's own evolve is printed beside it.
//
// Emmett's stores are installed by the bench into bench/.cache/peers on first use
// (bench/peer-install.mjs); PostgreSQL is a throwaway server with fsync on, one database each.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createDecider, encodeEvents, fileStore, findingId, importLog, ZERO_HASH } from '../lib/index.js';
import { forgetCheckpoints } from '../lib/store/checkpoint.js';
import { encodeHead } from '../lib/store/log-format.js';
import { openPostgresStore } from '../lib/store/postgres/index.js';
import { initSchema } from '../lib/store/postgres/tables.js';
import { startPostgres } from '../scripts/postgres-server.mjs';
import { loadPeers } from './peer-install.mjs';
import { reviewStream, roundEvents } from './review-stream.mjs';

const READ_EVENTS = 1_001;
const by = 'bench';

/** The fold a team writes for this loop with Emmett: no rule checked, the open findings by id. */
const emmettInitial = () => ({ round: 0, status: 'open', findings: new Map() });
const emmettEvolve = (state, event) => {
  switch (event.type) {
    case 'run.opened':
      return { ...state, runId: event.data.runId, maxRounds: event.data.policy.maxRounds };
    case 'revision.captured':
      return { ...state, round: event.data.round, inputSha: event.data.inputSha };
    case 'round.recorded': {
      const findings = new Map(state.findings);
      for (const d of event.data.report.decisions) if (d.status !== 'open') findings.delete(d.id);
      for (const c of event.data.report.candidates)
        findings.set(findingId(c), { file: c.file, severity: c.severity, summary: c.summary });
      return { ...state, findings, lastReport: event.data.reportSha };
    }
    default:
      return state;
  }
};

/** Clearance's own evolve inside Emmett's aggregateStream: its events given back the envelope the rules read. */
const { evolve: clearanceEvolve, initialState: clearanceInitial } = createDecider();
const clearanceInEmmett = (state, event) => {
  const next = clearanceEvolve(state, {
    type: event.type,
    data: event.data,
    seq: Number(event.metadata.streamPosition),
  });
  return next._tag === 'Right' ? next.right : state;
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ranged = (xs, digits = 2) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

/**
 * Run `sides` (name → async operation) one operation each in turn, `window` turns a window,
 * `windows` windows after `warmUp` turns: each side's mean time per window, in ms.
 */
const interleave = async (sides, { window, windows, warmUp, between = async () => undefined }) => {
  for (let i = 0; i < warmUp; i += 1) {
    for (const side of Object.values(sides)) await side();
    await between();
  }
  const ms = Object.fromEntries(Object.keys(sides).map((name) => [name, []]));
  for (let w = 0; w < windows; w += 1) {
    const spent = Object.fromEntries(Object.keys(sides).map((name) => [name, 0]));
    for (let i = 0; i < window; i += 1) {
      for (const [name, side] of Object.entries(sides)) {
        const t = performance.now();
        await side();
        spent[name] += performance.now() - t;
      }
      await between();
    }
    for (const name of Object.keys(sides)) ms[name].push(spent[name] / window);
  }
  return ms;
};

/** A fleet of streams both sides append rounds to, each at a known version. */
const fleetOf = (prefix, runs) =>
  Array.from({ length: runs }, (_, k) => ({ id: `${prefix}-${k}`, round: 1, version: 0 }));

/**
 * The append comparison for one pair of stores: `clearance` (a clearance Store) and `emmett` (an
 * Emmett event store), each holding the fleet's opening and first capture already. The timed
 * operation is the round report; the next capture follows untimed on both sides.
 */
const appendRace = async (clearance, emmett, fleet, options) => {
  let turn = -1;
  let run = fleet[0];
  const report = () => roundEvents(run.id, run.round)[1];
  const sides = {
    clearance: async () => {
      turn = (turn + 1) % fleet.length;
      run = fleet[turn];
      await clearance.append(run.id, [report()], { by, expectedSeq: run.version });
    },
    emmett: async () => {
      const { type, data } = report();
      await emmett.appendToStream(run.id, [{ type, data }], { expectedStreamVersion: BigInt(run.version) });
    },
  };
  const between = async () => {
    run.version += 1;
    run.round += 1;
    const [capture] = roundEvents(run.id, run.round);
    await clearance.append(run.id, [capture], { by, expectedSeq: run.version });
    await emmett.appendToStream(run.id, [{ type: capture.type, data: capture.data }], {
      expectedStreamVersion: BigInt(run.version),
    });
    run.version += 1;
  };
  return interleave(sides, { ...options, between });
};

/** Round 1's capture appended on both sides (clearance's runs hold their opening already), so each stream is at version 2. */
const openFleet = async (clearance, emmett, fleet) => {
  for (const run of fleet) {
    const first = [reviewStream(run.id, 1)[0], roundEvents(run.id, 1)[0]];
    await clearance.append(run.id, first.slice(1), { by });
    await emmett.appendToStream(
      run.id,
      first.map(({ type, data }) => ({ type, data })),
    );
    run.version = 2;
  }
};

/** The 1,001-event stream on Emmett's side, appended 100 events a call. */
const loadEmmettStream = async (emmett, id, events) => {
  for (let i = 0; i < events.length; i += 100)
    await emmett.appendToStream(
      id,
      events.slice(i, i + 100).map(({ type, data }) => ({ type, data })),
    );
};

/**
 * The read race. `kept` is the same stream on clearance's side with the checkpoint an append leaves
 * (what `status` reads for a run its own appends wrote: the state, then the lines after it); it is
 * printed beside the headline, which is the read of every line.
 */
const readRace = async (clearance, emmett, id, kept, options) => {
  const sides = {
    clearance: async () => {
      const read = await clearance.foldRun(id);
      if (read.issue !== null || read.events !== READ_EVENTS || read.refused !== 0 || read.fromCheckpoint)
        throw new Error('bench: clearance did not read the whole stream cleanly');
    },
    clearanceFromCheckpoint: async () => {
      // as a fresh process: the checkpoint read from the store, never this process's memory
      forgetCheckpoints();
      const read = await clearance.foldRun(kept);
      if (read.issue !== null || read.events !== READ_EVENTS || !read.fromCheckpoint)
        throw new Error('bench: clearance did not read the stream from its checkpoint');
    },
    emmett: async () => {
      const { state } = await emmett.aggregateStream(id, {
        evolve: emmettEvolve,
        initialState: emmettInitial,
      });
      if (state.round !== 500) throw new Error('bench: Emmett did not read the whole stream');
    },
    emmettWithClearanceEvolve: async () => {
      const { state } = await emmett.aggregateStream(id, {
        evolve: clearanceInEmmett,
        initialState: () => clearanceInitial,
      });
      if (state.round !== 500)
        throw new Error("bench: Emmett with clearance's evolve did not read the stream");
    },
  };
  return interleave(sides, options);
};

/**
 * What a refused append leaves behind: two events appended (the second at version 1), a stale
 * append at 1 refused, then an append at 2, the stream's true version. In emmett-sqlite 0.42.4 the stale append, refused,
 * still commits the stream's position (its UPDATE runs, the conflict is returned rather than
 * thrown, and the transaction commits), so the append at 2 is refused too, and every later one.
 */
const staleVersionProbe = async (emmett, stream) => {
  const event = (i) => [{ type: 'probe', data: { i } }];
  const outcome = (p) =>
    p.then(
      () => 'appended',
      (e) =>
        e?.constructor?.name?.includes('ExpectedVersionConflict') ? 'refused' : `failed: ${e?.message}`,
    );
  await emmett.appendToStream(stream, event(1));
  await emmett.appendToStream(stream, event(2), { expectedStreamVersion: 1n });
  const stale = await outcome(emmett.appendToStream(stream, event(3), { expectedStreamVersion: 1n }));
  const next = await outcome(emmett.appendToStream(stream, event(4), { expectedStreamVersion: 2n }));
  const read = await emmett.readStream(stream);
  return { stale, next, events: read.events.length };
};

const ratiosOf = (ms, side) => ms[side].map((theirs, w) => theirs / ms.clearance[w]);

/** The file store against Emmett's SQLite store (WAL, synchronous = FULL, one connection). */
const sqliteRace = async (peers, options) => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'clearance-peers-'));
  const { sqliteConnection, getSQLiteEventStore } = peers.sqlite;
  const fileName = path.join(root, 'emmett.db');
  const connection = sqliteConnection({ fileName });
  try {
    await connection.command('PRAGMA synchronous = FULL');
    const settings = {
      journal_mode: (await connection.querySingle('PRAGMA journal_mode')).journal_mode,
      synchronous: (await connection.querySingle('PRAGMA synchronous')).synchronous,
    };
    const emmett = getSQLiteEventStore({ fileName, connectionOptions: { singleton: true, connection } });
    const dir = path.join(root, 'clearance');
    const clearance = fileStore(dir);
    await mkdir(path.join(dir, 'runs'), { recursive: true });
    const fleet = fleetOf('loop', options.runs);
    for (const run of fleet) await writeRun(dir, run.id, [reviewStream(run.id, 1)[0]]);
    await openFleet(clearance, emmett, fleet);
    const append = await appendRace(clearance, emmett, fleet, options.append);
    const events = reviewStream('history', READ_EVENTS);
    await writeRun(dir, 'history', events);
    await loadEmmettStream(emmett, 'history', events);
    await writeRun(dir, 'kept', reviewStream('kept', READ_EVENTS));
    // an append that writes nothing keeps the checkpoint its fold reached
    await clearance.append('kept', [], { by });
    forgetCheckpoints();
    const read = await readRace(clearance, emmett, 'history', 'kept', options.read);
    return { settings, append, read, probe: await staleVersionProbe(emmett, 'probe-1') };
  } finally {
    await connection.close();
    await rm(root, { recursive: true, force: true });
  }
};

/** A run's log written whole, with its head anchor and no checkpoint. */
const writeRun = async (dir, runId, events) => {
  const encoded = encodeEvents(events, { seq: 0, hash: ZERO_HASH }, { at: new Date().toISOString(), by });
  await mkdir(path.join(dir, 'runs'), { recursive: true });
  await writeFile(path.join(dir, 'runs', `${runId}.jsonl`), encoded.text);
  await writeFile(
    path.join(dir, 'runs', `${runId}.head`),
    encodeHead({ seq: encoded.lastSeq, hash: encoded.lastHash }),
  );
  return encoded;
};

/** The PostgreSQL store against Emmett's, on one throwaway server (fsync on), a database each. */
const postgresRace = async (peers, options) => {
  const server = startPostgres({ durable: true });
  let clearance = null;
  let emmett = null;
  try {
    await server.ready;
    const urlOf = (db) => server.url.replace('/postgres?', `/${db}?`);
    const admin = new pg.Client({ connectionString: server.url });
    await admin.connect();
    await admin.query('CREATE DATABASE clearance_peer');
    await admin.query('CREATE DATABASE emmett_peer');
    const settings = Object.fromEntries(
      (
        await admin.query(
          "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'wal_sync_method', 'server_version')",
        )
      ).rows.map((r) => [r.name, r.setting]),
    );
    await admin.end();
    const init = new pg.Client({ connectionString: urlOf('clearance_peer') });
    await init.connect();
    await initSchema(init);
    await init.end();
    clearance = await openPostgresStore(urlOf('clearance_peer'));
    emmett = peers.postgresql.getPostgreSQLEventStore(urlOf('emmett_peer'));
    const fleet = fleetOf('loop', options.runs);
    for (const run of fleet) {
      const encoded = encodeEvents([reviewStream(run.id, 1)[0]], { seq: 0, hash: ZERO_HASH }, { at: '', by });
      await importLog(clearance, run.id, Buffer.from(encoded.text));
    }
    await openFleet(clearance, emmett, fleet);
    const append = await appendRace(clearance, emmett, fleet, options.append);
    const events = reviewStream('history', READ_EVENTS);
    const encoded = encodeEvents(events, { seq: 0, hash: ZERO_HASH }, { at: new Date().toISOString(), by });
    await importLog(clearance, 'history', Buffer.from(encoded.text));
    const keptText = encodeEvents(
      reviewStream('kept', READ_EVENTS),
      { seq: 0, hash: ZERO_HASH },
      { at: '', by },
    ).text;
    await importLog(clearance, 'kept', Buffer.from(keptText));
    // an append that writes nothing keeps the checkpoint its fold reached
    await clearance.append('kept', [], { by });
    await loadEmmettStream(emmett, 'history', events);
    const read = await readRace(clearance, emmett, 'history', 'kept', options.read);
    return { settings, append, read, probe: await staleVersionProbe(emmett, 'probe-1') };
  } finally {
    await clearance?.close().catch(() => undefined);
    await emmett?.close().catch(() => undefined);
    await server.stop();
  }
};

export const peersBench = async ({
  runs = 16,
  append = { window: 40, windows: 5, warmUp: 32 },
  read = { window: 10, windows: 5, warmUp: 5 },
} = {}) => {
  const peers = await loadPeers();
  const options = { runs, append, read };
  return {
    versions: peers.versions,
    options,
    sqlite: await sqliteRace(peers, options),
    postgres: await postgresRace(peers, options),
  };
};

export const printPeersBench = (r) => {
  const v = r.versions;
  const rate = (ms) =>
    `${Math.round(1000 / median(ms)).toLocaleString('en')} /s (${median(ms).toFixed(2)} ms)`;
  const met = (xs) =>
    xs.every((x) => x >= 1.5)
      ? 'met'
      : xs.every((x) => x >= 1)
        ? 'NOT met (≥ 1.0 in every window)'
        : 'NOT met';
  console.log(
    `peers     clearance ÷ Emmett (@event-driven-io/emmett ${v['@event-driven-io/emmett']}, emmett-sqlite ${v['@event-driven-io/emmett-sqlite']} on sqlite3 ${v.sqlite3}, emmett-postgresql ${v['@event-driven-io/emmett-postgresql']}): Emmett's time ÷ clearance's, per window of one operation each in turn; ranges over ${r.options.append.windows} windows (above 1: clearance is faster; target ≥ 1.5×)`,
  );
  console.log(
    "          what differs: clearance chains every line (SHA-256 of the one before), checks each event against the run's rules and refuses what breaks them, fsyncs its log; Emmett validates nothing and keeps no chain",
  );
  console.log(
    `          SQLite: journal_mode ${r.sqlite.settings.journal_mode}, synchronous ${r.sqlite.settings.synchronous} (2 = FULL), one connection; PostgreSQL ${r.postgres.settings.server_version}: fsync ${r.postgres.settings.fsync}, synchronous_commit ${r.postgres.settings.synchronous_commit}, wal_sync_method ${r.postgres.settings.wal_sync_method}, one server, one database each; the directory store fsyncs each append`,
  );
  for (const [name, side] of [
    ['directory store vs SQLite', r.sqlite],
    ['PostgreSQL vs PostgreSQL', r.postgres],
  ]) {
    const appendRatios = ratiosOf(side.append, 'emmett');
    const readRatios = ratiosOf(side.read, 'emmett');
    const withOwn = ratiosOf(side.read, 'emmettWithClearanceEvolve');
    const kept = side.read.emmett.map((theirs, w) => theirs / side.read.clearanceFromCheckpoint[w]);
    console.log(
      `          ${name}: durable append of a round report at its expected version, round-robin over ${r.options.runs} streams: clearance ${rate(side.append.clearance)}, Emmett ${rate(side.append.emmett)}; ratio ${ranged(appendRatios)}× (${met(appendRatios)})`,
    );
    console.log(
      `            read a ${READ_EVENTS.toLocaleString('en')}-event stream into state: clearance ${rate(side.read.clearance)}, Emmett ${rate(side.read.emmett)}; ratio ${ranged(readRatios)}× (${met(readRatios)}); Emmett folding with clearance's own evolve ${rate(side.read.emmettWithClearanceEvolve)}, ratio ${ranged(withOwn)}×`,
    );
    console.log(
      `            the same run read by clearance from the checkpoint its appends leave (state, then the lines after it; not the headline): ${rate(side.read.clearanceFromCheckpoint)}; Emmett's full read ÷ it ${ranged(kept)}×`,
    );
    const p = side.probe;
    console.log(
      `            Emmett, a stale append then one at the stream's true version: ${p.stale}, then ${p.next} (${p.events} event(s) stored)${p.stale === 'refused' && p.next === 'refused' ? ': the refused append moved the stream on, and the stream takes no append at any version now' : ''}`,
    );
  }
};

if (import.meta.url === `file://${process.argv[1]}`) printPeersBench(await peersBench());
