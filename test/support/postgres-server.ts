import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { MISSING_SERVER, postgresBinDir, startPostgres } from '../../scripts/postgres-server.mjs';
import { initSchema } from '../../src/store/postgres/tables.js';
import { withDatabase } from './pg-url.js';

/**
 * vitest global setup: a real, throwaway PostgreSQL server for the PostgreSQL store's tests.
 * `CLEARANCE_TEST_PG=postgres://…` points the suite at an existing server instead. Without either,
 * the PostgreSQL tests fail and say what to install: they never skip silently.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    /** a connection string for a database the tests may use, or null when there is none */
    pgUrl: string | null;
    /** why there is no server, when there is none */
    pgMissing: string;
    /**
     * A directory where this run says when the server is ready: `template` (the name of the
     * database every test database copies) once it accepts connections and the template is made,
     * or `failed` (why not). The server starts while the workers do; test/support/stores.ts waits.
     */
    pgReady: string;
  }
}

/**
 * The one server of this vitest run. Each project (vitest.config.ts has two) runs this setup, with
 * its own copy of this module, in the one main process: the first starts the server, the others
 * are given it, and the last teardown stops it.
 */
type Shared = {
  server: { url: string; ready: Promise<void>; stop: () => Promise<void> } | null;
  /** the directory `pgReady` names */
  signal: string | null;
  /** the template database's name once made, or null when the server or the template failed */
  template: Promise<string | null> | null;
  users: number;
};
const holder = globalThis as { clearanceTestPostgres?: Shared };
holder.clearanceTestPostgres ??= { server: null, signal: null, template: null, users: 0 };
const shared: Shared = holder.clearanceTestPostgres;

/** A fresh cluster kept between runs (a copy of it starts faster than initdb); ours alone. */
export const TEMPLATE_CACHE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../node_modules/.cache/clearance-postgres',
);

/**
 * A database with the schema `store init` makes, which every fresh test database copies: copying
 * it costs one statement, where creating a database and initialising it took two connections and
 * the DDL (about a tenth of a second a test). Named for this run, so a run against an existing
 * server (CLEARANCE_TEST_PG) never takes an older run's schema.
 */
const makeTemplate = async (url: string): Promise<string> => {
  const name = `clearance_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const client = new pg.Client({ connectionString: withDatabase(url, name) });
  await client.connect();
  try {
    await initSchema(client);
  } finally {
    await client.end();
  }
  return name;
};

/** The run's template and every test database copied from it (test/support/stores.ts names them). */
const dropTemplate = async (url: string, name: string): Promise<void> => {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const copies = await admin.query<{ datname: string }>(
      'SELECT datname FROM pg_database WHERE starts_with(datname, $1)',
      [`${name}_db_`],
    );
    for (const { datname } of copies.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname}`);
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
};

const serverUrl = (): string | null => {
  const existing = process.env.CLEARANCE_TEST_PG;
  if (existing !== undefined && existing !== '') return existing;
  if (postgresBinDir() === null) return null;
  shared.server ??= startPostgres({ templateCache: TEMPLATE_CACHE });
  return shared.server.url;
};

/** The server and the template, then the outcome written where the workers look for it. */
const prepare = async (url: string, signal: string): Promise<string | null> => {
  try {
    await shared.server?.ready;
    const name = await makeTemplate(url);
    // written beside and renamed: a worker never reads half a name
    writeFileSync(path.join(signal, 'template.tmp'), name);
    renameSync(path.join(signal, 'template.tmp'), path.join(signal, 'template'));
    return name;
  } catch (e) {
    writeFileSync(path.join(signal, 'failed'), e instanceof Error ? e.message : String(e));
    return null;
  }
};

export const setup = (project: TestProject): void => {
  const url = serverUrl();
  shared.users += 1;
  if (url === null) {
    project.provide('pgUrl', null);
    project.provide('pgMissing', MISSING_SERVER);
    project.provide('pgReady', '');
    return;
  }
  if (shared.signal === null) {
    shared.signal = mkdtempSync(path.join(os.tmpdir(), 'clearance-pg-ready-'));
    shared.template = prepare(url, shared.signal);
  }
  project.provide('pgUrl', url);
  project.provide('pgMissing', '');
  project.provide('pgReady', shared.signal);
};

export const teardown = async (): Promise<void> => {
  shared.users -= 1;
  if (shared.users > 0) return;
  const template = await shared.template;
  shared.template = null;
  if (shared.signal !== null) rmSync(shared.signal, { recursive: true, force: true });
  shared.signal = null;
  const server = shared.server;
  shared.server = null;
  if (server !== null) {
    await server.stop(); // the whole cluster goes, the template with it
    return;
  }
  const existing = process.env.CLEARANCE_TEST_PG;
  if (template !== null && template !== undefined && existing !== undefined && existing !== '')
    await dropTemplate(existing, template);
};
