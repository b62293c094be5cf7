import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { MISSING_SERVER, postgresBinDir, startPostgres } from '../../scripts/postgres-server.mjs';

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
  }
}

/**
 * The one server of this vitest run. Each project (vitest.config.ts has two) runs this setup, with
 * its own copy of this module, in the one main process: the first starts the server, the others
 * are given it, and the last teardown stops it.
 */
type Shared = { server: { url: string; stop: () => void } | null; users: number };
const holder = globalThis as { clearanceTestPostgres?: Shared };
holder.clearanceTestPostgres ??= { server: null, users: 0 };
const shared: Shared = holder.clearanceTestPostgres;

/** A fresh cluster kept between runs (a copy of it starts faster than initdb); ours alone. */
const TEMPLATE_CACHE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../node_modules/.cache/clearance-postgres',
);

export const setup = (project: TestProject): void => {
  const existing = process.env.CLEARANCE_TEST_PG;
  if (existing !== undefined && existing !== '') {
    project.provide('pgUrl', existing);
    project.provide('pgMissing', '');
    return;
  }
  if (postgresBinDir() === null) {
    project.provide('pgUrl', null);
    project.provide('pgMissing', MISSING_SERVER);
    return;
  }
  shared.server ??= startPostgres({ templateCache: TEMPLATE_CACHE });
  shared.users += 1;
  project.provide('pgUrl', shared.server.url);
  project.provide('pgMissing', '');
};

export const teardown = (): void => {
  shared.users -= 1;
  if (shared.users > 0 || shared.server === null) return;
  const { stop } = shared.server;
  shared.server = null;
  stop();
};
