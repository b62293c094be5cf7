import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import {
  encodeEvents,
  exportLog,
  foldRunFromStart,
  importLog,
  PRESETS,
  type RunState,
  ZERO_HASH,
} from '../../src/index.js';
import { STATE_SHAPE_VERSION } from '../../src/projections/state.js';
import { decodeState } from '../../src/store/checkpoint.js';
import type { Encoded } from '../../src/store/log-format.js';
import { openPostgresStore, postgresStoreOn } from '../../src/store/postgres/index.js';
import { SCHEMA_VERSION } from '../../src/store/postgres/tables.js';
import type { Store } from '../../src/store/store.js';
import { captured, opened, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { blockedBackend, databaseOf } from '../support/pg-backends.js';
import { freshDatabase } from '../support/stores.js';

// The PostgreSQL store's fold checkpoint (schema version 2): the state after line N, kept in the
// run's row. What is counted here is what the real client sent to and fetched from the real
// server: a wrapped `query` counts the statements, the rows of every result and the run's lines
// they carried (a `line` column is one; a `lines` column, the log's bytes from a seq on, one per
// `\n`); nothing else is changed.

const by = 'tester';
const now = () => new Date('2026-11-30T07:00:00.000Z');

const failed = (i: number) => ({
  type: 'round.failed' as const,
  data: { round: 1, inputSha: sha('A'), reason: 'timeout' as const, detail: `attempt ${i}: no report` },
});

/** A run's log of `events` lines: opened, round 1 captured, failed attempts to collect it. */
const logOf = (runId: string, events: number): Buffer => {
  const all = [
    opened(PRESETS.default, runId),
    captured(1, 'A'),
    ...Array.from({ length: events - 2 }, (_, i) => failed(i)),
  ];
  return Buffer.from(encodeEvents(all, { seq: 0, hash: ZERO_HASH }, { at: now().toISOString(), by }).text);
};

const closing: Array<{ end: () => Promise<void> }> = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c.end().catch(() => undefined);
});

type Counted = { queries: number; rows: number; lines: number };

/** A client that counts the statements it sends, the rows they return, and the run's lines in them. */
const countingClient = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  closing.push(client);
  const counted: Counted = { queries: 0, rows: 0, lines: 0 };
  const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
  (client as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (...args) => {
    const result = await query(...args);
    counted.queries += 1;
    // a simple query of several statements answers with one result each
    for (const r of Array.isArray(result) ? result : [result]) {
      for (const row of (r as pg.QueryResult<Record<string, unknown>>).rows) {
        counted.rows += 1;
        if (typeof row.line === 'string') counted.lines += 1;
        if (typeof row.lines === 'string') counted.lines += row.lines.split('\n').length - 1;
      }
    }
    return result;
  };
  return { client, counted, store: postgresStoreOn(client) };
};

/** What `step` sent and fetched through `counted`, and what it answered. */
const during = async <T>(counted: Counted, step: () => Promise<T>) => {
  const before = { ...counted };
  const result = await step();
  return {
    result,
    queries: counted.queries - before.queries,
    rows: counted.rows - before.rows,
    lines: counted.lines - before.lines,
  };
};

/** A second connection for what no clearance command does: look at, or damage, the run's row. */
const adminOn = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  closing.push(client);
  return client;
};

type CheckpointRow = {
  last_seq: string;
  head_hash: string;
  checkpoint_seq: string | null;
  checkpoint_hash: string | null;
  checkpoint_shape: number | null;
  checkpoint_state: string | null;
  checkpoint_state_sha: string | null;
};

const checkpointRow = async (admin: pg.Client, runId: string): Promise<CheckpointRow> =>
  (
    await admin.query<CheckpointRow>(
      `SELECT last_seq, head_hash, checkpoint_seq, checkpoint_hash, checkpoint_shape, checkpoint_state,
              checkpoint_state_sha FROM clearance.runs WHERE run_id = $1`,
      [runId],
    )
  ).rows[0] as CheckpointRow;

/** The run's state folded from every line (what verify reads): the truth a checkpoint must agree with. */
const fullFold = async (store: Store, runId: string): Promise<RunState> =>
  (await foldRunFromStart(store, runId)).state;

/**
 * The checkpoint in the row is one this code trusts: at the head or behind it (the head's hash when
 * at it), this shape, a state that decodes, and a fold from it that reaches the full fold's state.
 */
const expectSoundCheckpoint = async (admin: pg.Client, store: Store, runId: string) => {
  const row = await checkpointRow(admin, runId);
  expect(Number(row.checkpoint_seq)).toBeGreaterThan(0);
  expect(Number(row.checkpoint_seq)).toBeLessThanOrEqual(Number(row.last_seq));
  if (row.checkpoint_seq === row.last_seq) expect(row.checkpoint_hash).toBe(row.head_hash);
  expect(row.checkpoint_shape).toBe(STATE_SHAPE_VERSION);
  expect(decodeState(row.checkpoint_state ?? '', row.checkpoint_state_sha ?? '')).not.toBeNull();
  const read = await store.foldRun(runId);
  expect(read.fromCheckpoint).toBe(true);
  expect(read.state).toEqual(await fullFold(store, runId));
};

const CHECKPOINT_COLUMNS =
  'checkpoint_seq, checkpoint_hash, checkpoint_shape, checkpoint_size, checkpoint_events, checkpoint_refused, checkpoint_state, checkpoint_state_sha';

/** Append `appends` lines, then put back the checkpoint from before them: a sound checkpoint, behind the head. */
const leaveCheckpointBehind = async (admin: pg.Client, store: Store, runId: string, appends: number) => {
  await admin.query(
    `CREATE TEMP TABLE IF NOT EXISTS kept AS SELECT run_id, ${CHECKPOINT_COLUMNS} FROM clearance.runs WITH NO DATA`,
  );
  await admin.query('DELETE FROM kept');
  await admin.query(
    `INSERT INTO kept SELECT run_id, ${CHECKPOINT_COLUMNS} FROM clearance.runs WHERE run_id = $1`,
    [runId],
  );
  for (let i = 0; i < appends; i += 1) await store.append(runId, [failed(500 + i)], { by, now });
  await admin.query(
    `UPDATE clearance.runs r SET (${CHECKPOINT_COLUMNS}) = (SELECT ${CHECKPOINT_COLUMNS} FROM kept k WHERE k.run_id = r.run_id)
      WHERE run_id = $1`,
    [runId],
  );
};

describe('an append to PostgreSQL reads O(1) rows, however long the run', () => {
  it('appends to a 13-event and a 2,000-event run fetch the same: one row, the checkpoint line', async () => {
    const url = await freshDatabase();
    const { client, store, counted } = await countingClient(url);
    const admin = await adminOn(url);
    await importLog(store, 'short', logOf('short', 12));
    await importLog(store, 'long', logOf('long', 1_999));
    // an imported run has no checkpoint yet: its first append folds every line and writes one
    const first = await during(counted, () => store.append('long', [failed(-1)], { by, now }));
    expect(first.lines).toBe(1_999);
    await store.append('short', [failed(-1)], { by, now });
    await expectSoundCheckpoint(admin, store, 'long');

    for (const runId of ['short', 'long']) {
      // a store that holds no fold of the run (a fresh process): the fold (the row with the line at
      // its checkpoint: nothing was written after it), then the write, which answers the row's version
      const fresh = postgresStoreOn(client);
      const appended = await during(counted, () => fresh.append(runId, [failed(1_000_000)], { by, now }));
      expect(appended).toMatchObject({ queries: 2, rows: 2, lines: 1 });
      // the same store again: it holds the fold its write reached, so the write alone, no line read
      const again = await during(counted, () => fresh.append(runId, [failed(1_000_001)], { by, now }));
      expect(again).toMatchObject({ queries: 1, rows: 1, lines: 0 });
      expect(again.result.appended.map((e) => e.seq)).toEqual([(appended.result.appended[0]?.seq ?? 0) + 1]);
      // status: the row, the line at its checkpoint and the lines after it (its state not yet due again)
      const row = await checkpointRow(admin, runId);
      const behind = Number(row.last_seq) - Number(row.checkpoint_seq);
      expect(behind).toBeLessThanOrEqual(2);
      const status = await during(counted, () => store.foldRun(runId));
      expect(status).toMatchObject({
        queries: 1,
        rows: 1,
        lines: 1 + behind,
        result: { fromCheckpoint: true },
      });
      expect(status.result.state).toEqual(await fullFold(store, runId));
      expect(again.result.folded.state).toEqual(status.result.state);
    }
    // the counter sees every line when there are: a full read of the long run
    expect((await during(counted, () => foldRunFromStart(store, 'long'))).lines).toBe(2_002);
    await expectSoundCheckpoint(admin, store, 'long');
  });

  it('from a checkpoint behind the head, folds only the lines after it', async () => {
    const url = await freshDatabase();
    const { store, counted } = await countingClient(url);
    const admin = await adminOn(url);
    await importLog(store, 'r', logOf('r', 200));
    await store.append('r', [failed(-1)], { by, now });
    // a checkpoint at seq 201, sound but five appends behind
    await leaveCheckpointBehind(admin, store, 'r', 5);
    const read = await during(counted, () => store.foldRun('r'));
    expect(read).toMatchObject({
      queries: 1,
      lines: 1 + 5,
      result: { fromCheckpoint: true, lastSeq: 206, events: 206 },
    });
    expect(read.result.state).toEqual(await fullFold(store, 'r'));
    // the checkpoint put back moved the row: the fold this store held is not written over, it folds again
    const appended = await during(counted, () => store.append('r', [failed(900)], { by, now }));
    expect(appended).toMatchObject({ queries: 3, lines: 1 + 5 });
    await expectSoundCheckpoint(admin, store, 'r');
  });
});

describe('the checkpoint is written again only once the lines after it are as long as its state', () => {
  it('until then an append moves the head alone, and a fresh store folds the lines after the checkpoint', async () => {
    const url = await freshDatabase();
    const { client, store } = await countingClient(url);
    const admin = await adminOn(url);
    await importLog(store, 'r', logOf('r', 12));
    const seen = { behind: 0, at: 0 };
    for (let i = 0; i < 12; i += 1) {
      await store.append('r', [failed(100 + i)], { by, now });
      const row = await checkpointRow(admin, 'r');
      const bytes = (row.checkpoint_state ?? '').length;
      const sizes = await admin.query<{ head: string; at: string }>(
        `SELECT (SELECT sum(octet_length(line) + 1) FROM clearance.events WHERE run_id = 'r') AS head,
                checkpoint_size AS at FROM clearance.runs WHERE run_id = 'r'`,
      );
      const { head, at } = sizes.rows[0] as { head: string; at: string };
      if (row.checkpoint_seq === row.last_seq) seen.at += 1;
      else {
        seen.behind += 1;
        // not yet due: the lines after it are shorter than its state
        expect(Number(head) - Number(at)).toBeLessThan(bytes);
      }
      const fresh = await postgresStoreOn(client).foldRun('r');
      expect(fresh).toMatchObject({ fromCheckpoint: true, issue: null, lastSeq: 13 + i });
      expect(fresh.state).toEqual(await fullFold(store, 'r'));
    }
    expect(seen.behind).toBeGreaterThan(0);
    expect(seen.at).toBeGreaterThan(0);
  });
});

/** What another append would write: `line` after the last, the head moved to it (the checkpoint left behind). */
const appendLine = async (admin: pg.Client, line: Encoded) => {
  await admin.query("INSERT INTO clearance.events (run_id, seq, line) VALUES ('r', $1, $2)", [
    line.lastSeq,
    line.text.slice(0, -1),
  ]);
  await admin.query("UPDATE clearance.runs SET last_seq = $1, head_hash = $2 WHERE run_id = 'r'", [
    line.lastSeq,
    line.lastHash,
  ]);
};

describe('an append whose run moved between its fold and its write', () => {
  /**
   * Another writer holds the run's row while `append` folds and reaches its write, then appends a
   * line itself (as an append would: chained after the last, the head moved) and commits.
   */
  const raceWith = async <T>(
    url: string,
    store: Store,
    append: () => Promise<T>,
    meanwhile: (admin: pg.Client, line: Encoded) => Promise<void> = appendLine,
  ) => {
    const admin = await adminOn(url);
    const watcher = await adminOn(url);
    const before = await store.foldRun('r');
    const line = encodeEvents(
      [failed(-2)],
      { seq: before.lastSeq, hash: before.lastHash },
      { at: now().toISOString(), by: 'other' },
    );
    await admin.query('BEGIN');
    await admin.query("SELECT 1 FROM clearance.runs WHERE run_id = 'r' FOR UPDATE");
    const racing = append().then(
      (value) => ({ value, error: null }),
      (error: unknown) => ({ value: null, error }),
    );
    // the append has folded and its write waits for the row
    await blockedBackend(watcher, databaseOf(url));
    await meanwhile(admin, line);
    await admin.query('COMMIT');
    return { ...(await racing), otherSeq: line.lastSeq };
  };

  it('writes nothing over it: it folds again and appends after the other line (compare-and-set)', async () => {
    const url = await freshDatabase();
    const { store, counted } = await countingClient(url);
    await importLog(store, 'r', logOf('r', 20));
    await store.append('r', [failed(-1)], { by, now });
    const raced = await raceWith(url, store, () =>
      during(counted, () => store.append('r', [failed(1)], { by, now })),
    );
    expect(raced.error).toBeNull();
    // the write from the fold this store held, which found the row moved; a fold (from the
    // checkpoint, one line behind); the write
    expect(raced.value).toMatchObject({ queries: 3, lines: 2 });
    expect(raced.value?.result.appended.map((e) => e.seq)).toEqual([raced.otherSeq + 1]);
    const read = await foldRunFromStart(store, 'r');
    expect(read.issue).toBeNull();
    expect(read.lastSeq).toBe(raced.otherSeq + 1);
    expect(read.state.failedAttempts).toBe(18 + 1 + 1 + 1);
  });

  it("a fold held by one store is never trusted past another store's append: checked, refused and chained afresh", async () => {
    const url = await freshDatabase();
    const { client, store, counted } = await countingClient(url);
    const other = postgresStoreOn(client);
    await importLog(store, 'r', logOf('r', 20));
    await store.append('r', [failed(-1)], { by, now });
    const moved = await other.append('r', [failed(-2)], { by, now });
    const seq = moved.appended[0]?.seq ?? 0;
    // the held fold says seq 21; the run is at 22: an expected 22 is met, not refused from what was held
    const appended = await during(counted, () =>
      store.append('r', [failed(1)], { by, now, expectedSeq: seq }),
    );
    expect(appended.result.appended.map((e) => e.seq)).toEqual([seq + 1]);
    // and an expected 21 is refused from a fresh fold (the held one would have met it)
    const stale = await store
      .append('r', [failed(2)], { by, now, expectedSeq: seq })
      .catch((e: unknown) => e);
    expect((stale as { code?: string }).code).toBe('seq-mismatch');
    const read = await foldRunFromStart(store, 'r');
    expect(read).toMatchObject({ issue: null, lastSeq: seq + 1 });
  });

  it('with an expected seq, the fold again refuses it (seq-mismatch), the other line alone written', async () => {
    const url = await freshDatabase();
    const { store } = await countingClient(url);
    await importLog(store, 'r', logOf('r', 20));
    await store.append('r', [failed(-1)], { by, now });
    const raced = await raceWith(url, store, () =>
      store.append('r', [failed(1)], { by, now, expectedSeq: 21 }),
    );
    expect((raced.error as { code?: string }).code).toBe('seq-mismatch');
    const read = await foldRunFromStart(store, 'r');
    expect(read.issue).toBeNull();
    expect(read.lastSeq).toBe(raced.otherSeq);
  });

  it('a line changed meanwhile is found: the fold again reads every line and refuses (integrity)', async () => {
    const url = await freshDatabase();
    const { store } = await countingClient(url);
    await importLog(store, 'r', logOf('r', 20));
    await store.append('r', [failed(-1)], { by, now });
    const raced = await raceWith(
      url,
      store,
      () => store.append('r', [failed(1)], { by, now }),
      async (admin) => {
        await admin.query(
          "UPDATE clearance.events SET line = replace(line, 'attempt 3:', 'attempt 4:') WHERE run_id = 'r' AND seq = 6",
        );
      },
    );
    expect((raced.error as { code?: string }).code).toBe('integrity');
    expect((await foldRunFromStart(store, 'r')).issue?.line).toBe(7);
    const admin = await adminOn(url);
    const lines = await admin.query("SELECT max(seq)::int AS last FROM clearance.events WHERE run_id = 'r'");
    expect(lines.rows[0].last).toBe(21);
  });

  it('a row held past the timeout is lock-timeout, nothing written', async () => {
    const url = await freshDatabase();
    const { store } = await countingClient(url);
    await importLog(store, 'r', logOf('r', 20));
    const admin = await adminOn(url);
    const before = await exportLog(store, 'r');
    await admin.query('BEGIN');
    await admin.query("SELECT 1 FROM clearance.runs WHERE run_id = 'r' FOR UPDATE");
    const refused = await store
      .append('r', [failed(1)], { by, now, timeoutMs: 200 })
      .catch((e: unknown) => e);
    await admin.query('ROLLBACK');
    expect((refused as { code?: string }).code).toBe('lock-timeout');
    expect((await exportLog(store, 'r')).equals(before)).toBe(true);
  });
});

/** Ways a checkpoint in the row can be wrong; each must be ignored, never trusted, and then replaced. */
const DAMAGES: ReadonlyArray<readonly [string, string]> = [
  ['another hash', "checkpoint_hash = repeat('0', 64)"],
  ['another shape version', `checkpoint_shape = ${STATE_SHAPE_VERSION + 1}`],
  ['an older shape version', `checkpoint_shape = ${STATE_SHAPE_VERSION - 1}`],
  ['garbage JSON', `checkpoint_state = '{"status":"converged",'`],
  [
    // a rewrite that keeps its own hash consistent: the state still does not parse
    'garbage JSON under a matching hash',
    `checkpoint_state = '{"status":', checkpoint_state_sha = encode(sha256(convert_to('{"status":', 'UTF8')), 'hex')`,
  ],
  [
    'a state that is no object',
    `checkpoint_state = 'null', checkpoint_state_sha = encode(sha256('null'::bytea), 'hex')`,
  ],
  [
    'a state edited under its old hash',
    `checkpoint_state = replace(checkpoint_state, '"open"', '"converged"')`,
  ],
  ['a checkpoint ahead of the log', 'checkpoint_seq = last_seq + 5'],
  ['a checkpoint at seq 0', 'checkpoint_seq = 0'],
  ['a count that is no count', 'checkpoint_events = -3'],
  ['a size shorter than its own line', 'checkpoint_size = 10'],
];

describe('a damaged PostgreSQL checkpoint is rebuilt and never trusted', () => {
  it.each(
    DAMAGES.flatMap(([what, damage]) => [
      [what, 'at the head', damage] as const,
      [what, 'behind the head', damage] as const,
    ]),
  )(
    '%s, %s: status folds every line, the append gives the full fold, and replaces it',
    async (_, where, damage) => {
      const url = await freshDatabase();
      const { store, counted } = await countingClient(url);
      const admin = await adminOn(url);
      await importLog(store, 'r', logOf('r', 40));
      await store.append('r', [failed(-1)], { by, now });
      await expectSoundCheckpoint(admin, store, 'r');
      // behind the head, the head cannot vouch for the checkpoint's line: only that line's own hash can
      if (where === 'behind the head') await leaveCheckpointBehind(admin, store, 'r', 3);
      expect((await store.foldRun('r')).fromCheckpoint).toBe(true);
      const truth = await fullFold(store, 'r');

      await admin.query(`UPDATE clearance.runs SET ${damage} WHERE run_id = 'r'`);
      const status = await during(counted, () => store.foldRun('r'));
      expect(status.result).toMatchObject({ fromCheckpoint: false, issue: null });
      expect(status.result.state).toEqual(truth);
      // every line was read: the checkpoint was not used
      expect(status.lines).toBeGreaterThanOrEqual(status.result.lastSeq);
      // a read never repairs it: the damage is still there for the append to find
      expect((await store.foldRun('r')).fromCheckpoint).toBe(false);

      const appended = await store.append('r', [failed(7)], { by, now });
      expect(appended.folded.state).toEqual(await fullFold(store, 'r'));
      expect(appended.folded.state.failedAttempts).toBe(truth.failedAttempts + 1);
      await expectSoundCheckpoint(admin, store, 'r');
      expect((await store.foldRun('r')).fromCheckpoint).toBe(true);
      expect((await foldRunFromStart(store, 'r')).issue).toBeNull();
    },
  );

  it('an append that writes nothing still replaces a damaged checkpoint with the one its fold reached', async () => {
    const url = await freshDatabase();
    const { store } = await countingClient(url);
    const admin = await adminOn(url);
    await importLog(store, 'r', logOf('r', 20));
    await store.append('r', [failed(-1)], { by, now });
    await admin.query("UPDATE clearance.runs SET checkpoint_hash = repeat('0', 64) WHERE run_id = 'r'");
    const nothing = await store.append('r', [], { by, now });
    expect(nothing.appended).toEqual([]);
    await expectSoundCheckpoint(admin, store, 'r');
  });

  it('a line changed before the checkpoint takes the checkpoint with it: status and the append find the damage', async () => {
    const url = await freshDatabase();
    const { store } = await countingClient(url);
    const admin = await adminOn(url);
    await importLog(store, 'r', logOf('r', 30));
    await store.append('r', [failed(-1)], { by, now });
    await expectSoundCheckpoint(admin, store, 'r');
    const before = (
      await admin.query("SELECT seq, line FROM clearance.events WHERE run_id = 'r' ORDER BY seq")
    ).rows;
    await admin.query(
      "UPDATE clearance.events SET line = replace(line, 'attempt 3:', 'attempt 4:') WHERE run_id = 'r' AND seq = 6",
    );
    expect((await checkpointRow(admin, 'r')).checkpoint_seq).toBeNull();
    const status = await store.foldRun('r');
    expect(status.fromCheckpoint).toBe(false);
    expect(status.issue?.line).toBe(7);
    const refused = await store.append('r', [failed(8)], { by, now }).catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('integrity');
    // nothing was written: the lines are the changed ones, no more
    const after = (
      await admin.query("SELECT seq, line FROM clearance.events WHERE run_id = 'r' ORDER BY seq")
    ).rows;
    expect(after.length).toBe(before.length);
    expect(after.filter((r, i) => r.line !== before[i]?.line).map((r) => r.seq)).toEqual(['6']);
  });
});

// The schema `store init` made at version 1, before the checkpoint: frozen here, as it was, so the
// upgrade is tested from the database an older clearance left.
const SCHEMA_V1 = [
  'CREATE SCHEMA IF NOT EXISTS clearance',
  `CREATE TABLE IF NOT EXISTS clearance.meta (
     key text PRIMARY KEY,
     value text NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS clearance.runs (
     run_id text PRIMARY KEY,
     last_seq bigint NOT NULL CHECK (last_seq >= 1),
     head_hash text NOT NULL CHECK (head_hash ~ '^[0-9a-f]{64}$'))`,
  `CREATE TABLE IF NOT EXISTS clearance.events (
     run_id text NOT NULL REFERENCES clearance.runs (run_id),
     seq bigint NOT NULL CHECK (seq >= 1),
     line text NOT NULL,
     PRIMARY KEY (run_id, seq))`,
  `CREATE TABLE IF NOT EXISTS clearance.objects (
     run_id text NOT NULL,
     sha text NOT NULL CHECK (sha ~ '^[0-9a-f]{64}$'),
     bytes bytea NOT NULL,
     PRIMARY KEY (run_id, sha))`,
  `CREATE TABLE IF NOT EXISTS clearance.reports (
     run_id text NOT NULL,
     round integer NOT NULL,
     input_sha text NOT NULL,
     reviewer text NOT NULL,
     body bytea NOT NULL,
     PRIMARY KEY (run_id, round, input_sha, reviewer))`,
  "INSERT INTO clearance.meta (key, value) VALUES ('schema_version', '1')",
];

describe('the checkpoint arrives through store init', () => {
  it('a version-1 database is refused (78, unchanged) until store init upgrades it; its runs then fold and append', async () => {
    const url = await freshDatabase();
    const admin = await adminOn(url);
    await admin.query('DROP SCHEMA clearance CASCADE');
    for (const statement of SCHEMA_V1) await admin.query(statement);
    // a run as version 1 wrote it: its row and its lines, no checkpoint
    const log = logOf('old', 30);
    const lines = log.toString('utf8').split('\n').slice(0, -1);
    const last = JSON.parse(lines[lines.length - 1] ?? '') as { seq: number };
    const { sha256Hex } = await import('../../src/events/sha256.js');
    await admin.query('INSERT INTO clearance.runs (run_id, last_seq, head_hash) VALUES ($1, $2, $3)', [
      'old',
      last.seq,
      sha256Hex(lines[lines.length - 1] ?? ''),
    ]);
    await admin.query(
      `INSERT INTO clearance.events (run_id, seq, line)
       SELECT 'old', ordinality, line FROM unnest($1::text[]) WITH ORDINALITY AS t(line, ordinality)`,
      [lines],
    );
    const columns = async () =>
      (
        await admin.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_schema = 'clearance' AND table_name = 'runs' ORDER BY column_name",
        )
      ).rows.map((r) => r.column_name);
    const v1Columns = await columns();
    expect(v1Columns).toEqual(['head_hash', 'last_seq', 'run_id']);

    for (const args of [
      ['status', 'old'],
      ['capture', 'old', '--input-sha', sha('B')],
    ]) {
      const refused = await cli([...args, '--store', url, '--json']);
      expect(refused.code, refused.stdout).toBe(78);
      expect(refused.json.error).toMatchObject({ code: 'store-schema' });
      expect((refused.json.error as { message: string }).message).toContain('store init');
    }
    // refused with nothing changed: no column added, no line written
    expect(await columns()).toEqual(v1Columns);
    expect(
      (await admin.query("SELECT count(*)::int AS n FROM clearance.events WHERE run_id = 'old'")).rows[0].n,
    ).toBe(30);

    const init = await cli(['store', 'init', '--store', url, '--json']);
    expect(init.code, init.stdout).toBe(0);
    expect(init.json).toMatchObject({ from: 1, to: SCHEMA_VERSION });
    expect(await columns()).toContain('checkpoint_state');

    const store = await openPostgresStore(url);
    closing.push({ end: () => store.close() });
    const status = await store.foldRun('old');
    expect(status.fromCheckpoint).toBe(false);
    expect(status.state).toEqual(await fullFold(store, 'old'));
    const captured = await cli(['capture', 'old', '--input-sha', sha('B'), '--store', url, '--json']);
    expect(captured.code, captured.stdout).toBe(0);
    await expectSoundCheckpoint(admin, store, 'old');
    expect((await store.foldRun('old')).fromCheckpoint).toBe(true);
    expect((await cli(['verify', 'old', '--store', url])).code).toBe(0);
  });
});
