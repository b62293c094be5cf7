import type pg from 'pg';
import { ClearanceError } from '../../errors.js';

/**
 * The PostgreSQL store's tables, in their own schema `clearance`. A run's events are stored as
 * their exact canonical lines, so the hash chain, `verify`, `replay` and `export` give the same
 * bytes as the file store. The schema is created and upgraded only by `clearance store init`;
 * every other command checks the version and refuses one it does not know.
 */
export const SCHEMA_VERSION = 2;

/**
 * Every statement `store init` runs, in order, each idempotent: a fresh database gets them all, an
 * older one the ones it lacks. Version 1 is the first list; each later version only adds to it.
 */
const CREATE = [
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
  // no reference to runs: an output is archived before the event that names it, and an imported
  // run's outputs before its lines
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
  // 2: the run's fold checkpoint, beside its head in its own row (docs/storage.md,
  // "PostgreSQL"): the state after line `checkpoint_seq`, whose hash it records.
  // Appenders write it under the row's lock; a reader trusts it only when it matches the lines.
  // No constraints: a checkpoint that is wrong is ignored, never refused.
  `ALTER TABLE clearance.runs
     ADD COLUMN IF NOT EXISTS checkpoint_seq bigint,
     ADD COLUMN IF NOT EXISTS checkpoint_hash text,
     ADD COLUMN IF NOT EXISTS checkpoint_shape integer,
     ADD COLUMN IF NOT EXISTS checkpoint_size bigint,
     ADD COLUMN IF NOT EXISTS checkpoint_events bigint,
     ADD COLUMN IF NOT EXISTS checkpoint_refused bigint,
     ADD COLUMN IF NOT EXISTS checkpoint_state text,
     ADD COLUMN IF NOT EXISTS checkpoint_state_sha text`,
  // clearance only inserts lines: a line changed or removed by anyone else takes the run's
  // checkpoint with it, so the next append or status folds every line and finds the change (what
  // the file store's check of the log's change time does for a file)
  `CREATE OR REPLACE FUNCTION clearance.forget_checkpoint() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE clearance.runs SET checkpoint_seq = NULL WHERE run_id = OLD.run_id;
     RETURN NULL;
   END $$`,
  'DROP TRIGGER IF EXISTS line_changed ON clearance.events',
  `CREATE TRIGGER line_changed AFTER UPDATE OR DELETE ON clearance.events
     FOR EACH ROW EXECUTE FUNCTION clearance.forget_checkpoint()`,
];

export type SchemaState = Readonly<{ version: number | null }>;

/** The schema version a database holds: null when `store init` never ran there. Reads only. */
export const schemaVersion = async (client: pg.ClientBase): Promise<number | null> => {
  const found = await client.query<{ present: boolean }>(
    "SELECT to_regclass('clearance.meta') IS NOT NULL AS present",
  );
  if (found.rows[0]?.present !== true) return null;
  const row = await client.query<{ value: string }>(
    "SELECT value FROM clearance.meta WHERE key = 'schema_version'",
  );
  const value = row.rows[0]?.value;
  return value === undefined ? null : Number(value);
};

/** Refuse a database whose schema is missing, older or newer than this code. */
export const assertSchema = async (client: pg.ClientBase): Promise<void> => {
  const version = await schemaVersion(client);
  if (version === SCHEMA_VERSION) return;
  throw new ClearanceError(
    'store-schema',
    version === null
      ? 'this PostgreSQL database has no clearance schema: run `clearance store init` once (with a role that may create it)'
      : version < SCHEMA_VERSION
        ? `this PostgreSQL database holds clearance schema version ${version}, older than this clearance (${SCHEMA_VERSION}): run \`clearance store init\` to upgrade it`
        : `this PostgreSQL database holds clearance schema version ${version}, newer than this clearance understands (${SCHEMA_VERSION}): upgrade clearance`,
    { version, expected: SCHEMA_VERSION },
  );
};

/** Create (or upgrade to) the current schema, in one transaction. Idempotent. */
export const initSchema = async (client: pg.ClientBase): Promise<{ from: number | null; to: number }> => {
  await client.query('BEGIN');
  try {
    // one init at a time: a second `store init` waits here instead of racing the DDL
    await client.query("SELECT pg_advisory_xact_lock(hashtext('clearance.schema'))");
    const from = await schemaVersion(client);
    if (from !== null && from > SCHEMA_VERSION) {
      throw new ClearanceError(
        'store-schema',
        `this PostgreSQL database holds clearance schema version ${from}, newer than this clearance (${SCHEMA_VERSION}): upgrade clearance instead`,
        { version: from, expected: SCHEMA_VERSION },
      );
    }
    for (const statement of CREATE) await client.query(statement);
    await client.query(
      `INSERT INTO clearance.meta (key, value) VALUES ('schema_version', $1)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [String(SCHEMA_VERSION)],
    );
    await client.query('COMMIT');
    return { from, to: SCHEMA_VERSION };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
};
