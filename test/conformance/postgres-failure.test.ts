import type pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { isClearanceError } from '../../src/index.js';
import { connect, postgresFailure } from '../../src/store/postgres/connect.js';
import { openPostgresStore, postgresStoreOn } from '../../src/store/postgres/index.js';
import { adminOf } from '../support/pg-admin.js';
import { databaseOf, terminate } from '../support/pg-backends.js';
import { freshDatabase } from '../support/stores.js';

/**
 * `postgresFailure` names what the server or the network did: a connection lost under a command is
 * `store-unavailable`, whatever pg made of it, even its own errors with neither errno nor SQLSTATE.
 * An error with no code on a connection that is whole is no such thing, and is passed on.
 */

const admin = async (): Promise<pg.Client> => {
  const url = inject('pgUrl');
  if (url === null) throw new Error(`the PostgreSQL store's tests need a server: ${inject('pgMissing')}`);
  return adminOf(url);
};

const opened: pg.Client[] = [];
afterEach(async () => {
  for (const client of opened.splice(0)) await client.end().catch(() => undefined);
});

const secretUrl = async (): Promise<string> =>
  (await freshDatabase()).replace('//clearance@', '//clearance:s3cret@');

/** A connection of ours whose backend is gone, once pg has said so. */
const brokenConnection = async (url: string): Promise<pg.Client> => {
  const client = await connect(url);
  opened.push(client);
  const said = new Promise((resolve) => client.once('error', resolve));
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await terminate(await admin(), rows[0]?.pid as number);
  await said;
  return client;
};

describe('a PostgreSQL failure, named', () => {
  it("names pg's own error for a query on a lost connection (no errno, no SQLSTATE) store-unavailable, without the password", async () => {
    const url = await secretUrl();
    const client = await brokenConnection(url);
    const raw = await client.query('SELECT 1').then(
      () => null,
      (e: unknown) => e,
    );
    expect((raw as { code?: unknown }).code).toBeUndefined(); // what today's pg raises: no code at all
    const named = postgresFailure(client, raw);
    if (!isClearanceError(named)) throw new Error(`passed on unnamed: ${String(raw)}`);
    expect(named.code).toBe('store-unavailable');
    expect(named.message).toContain(`lost the connection to the postgres database ${databaseOf(url)}`);
    expect(JSON.stringify({ message: named.message, details: named.details })).not.toContain('s3cret');
  });

  it('ends a store operation on a connection lost while the store was idle as store-unavailable', async () => {
    const url = await secretUrl();
    const client = await connect(url);
    opened.push(client);
    // the store over that one connection, as it is: nothing makes the connection again
    const store = postgresStoreOn(client);
    await terminate(await admin(), await idleBackendOf(databaseOf(url)));
    const failed = await store.listRuns().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isClearanceError(failed) ? failed.code : failed).toBe('store-unavailable');
  });

  it('the store a command opens makes a lost connection again before its next call, and reads again once', async () => {
    const url = await secretUrl();
    const store = await openPostgresStore(url);
    try {
      for (let n = 0; n < 3; n += 1) {
        await terminate(await admin(), await idleBackendOf(databaseOf(url)));
        expect(await store.listRuns()).toEqual([]);
      }
    } finally {
      await store.close().catch(() => undefined);
    }
  });

  it('passes on an error with no code from a connection that is whole: that is a bug, not the store', async () => {
    const client = await connect(await freshDatabase());
    opened.push(client);
    const bug = new Error('not the store');
    expect(postgresFailure(client, bug)).toBe(bug);
  });
});

/** The one clearance backend of `database` (a store just opened, idle). */
const idleBackendOf = async (database: string): Promise<number> => {
  const found = await (await admin()).query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = 'clearance'",
    [database],
  );
  expect(found.rows).toHaveLength(1);
  return found.rows[0]?.pid as number;
};
