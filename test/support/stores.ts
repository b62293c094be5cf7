import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { fileStore, type Store } from '../../src/store/store.js';
import { adminOf } from './pg-admin.js';
import { withDatabase } from './pg-url.js';
import { tempDir } from './tmp.js';

/**
 * The stores every conformance test runs against. PostgreSQL comes from the suite's own throwaway
 * server (test/support/postgres-server.ts) or CLEARANCE_TEST_PG; without either the PostgreSQL
 * half fails, saying what to install.
 */
export type StoreKind = 'file' | 'postgres';
export const STORE_KINDS: ReadonlyArray<StoreKind> = ['file', 'postgres'];

let templateOfRun: Promise<string> | undefined;

/**
 * The run's template database, once the server is up and the template made: the global setup
 * (test/support/postgres-server.ts) starts both while the workers start, and says in the
 * `pgReady` directory when they are done or why they failed. Asked every 20 ms; a minute is room,
 * not a timing assertion.
 */
const waitForTemplate = async (): Promise<string> => {
  const signal = inject('pgReady');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const said = (name: string): string | null => {
      try {
        return readFileSync(path.join(signal, name), 'utf8');
      } catch {
        return null;
      }
    };
    const template = said('template');
    if (template !== null) return template;
    const failed = said('failed');
    if (failed !== null) throw new Error(`the PostgreSQL store's tests need a server: ${failed}`);
    if (Date.now() > deadline)
      throw new Error(
        `the suite's PostgreSQL server was not ready a minute after this worker first asked (${signal})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/**
 * A connection string for a fresh database of its own on the test server, schema initialised: a
 * copy of the run's template database (test/support/postgres-server.ts), as `store init` leaves one.
 */
export const freshDatabase = async (): Promise<string> => {
  const url = inject('pgUrl');
  if (url === null) throw new Error(`the PostgreSQL store's tests need a server: ${inject('pgMissing')}`);
  templateOfRun ??= waitForTemplate();
  const template = await templateOfRun;
  // named after the run's template, so that the run's end can drop them on a server it did not start
  const name = `${template}_db_${randomBytes(6).toString('hex')}`;
  await (await adminOf(url)).query(`CREATE DATABASE ${name} TEMPLATE ${template} STRATEGY FILE_COPY`);
  return withDatabase(url, name);
};

/** A fresh, empty store of this kind, and where it lives (a directory or a connection string). */
export const freshStore = async (kind: StoreKind): Promise<{ store: Store; location: string }> => {
  if (kind === 'file') {
    const dir = await tempDir();
    return { store: fileStore(dir), location: dir };
  }
  const location = await freshDatabase();
  return { store: await openPostgresStore(location), location };
};
