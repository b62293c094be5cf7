import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

/**
 * vitest global setup: a real, throwaway PostgreSQL server for the PostgreSQL store's tests.
 * `CLEARANCE_TEST_PG=postgres://…` points the suite at an existing server instead. Without either,
 * the suite is told why and fails: it never skips silently.
 */

declare module 'vitest' {
  export interface ProvidedContext {
    /** a connection string for a database the tests may use, or null when there is none */
    pgUrl: string | null;
    /** why there is no server, when there is none */
    pgMissing: string;
  }
}

const binDir = (): string | null => {
  const fromEnv = process.env.CLEARANCE_PG_BIN;
  if (fromEnv !== undefined && existsSync(path.join(fromEnv, 'initdb'))) return fromEnv;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => existsSync(path.join(debian, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return path.join(debian, versions[0], 'bin');
  }
  const which = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' });
  return which.status === 0 ? path.dirname(which.stdout.trim()) : null;
};

let stop: (() => void) | null = null;

export const setup = (project: TestProject): void => {
  const existing = process.env.CLEARANCE_TEST_PG;
  if (existing !== undefined && existing !== '') {
    project.provide('pgUrl', existing);
    project.provide('pgMissing', '');
    return;
  }
  const bin = binDir();
  if (bin === null) {
    project.provide('pgUrl', null);
    project.provide(
      'pgMissing',
      'no PostgreSQL server binaries (initdb, pg_ctl) were found: install them (Debian: apt-get install postgresql) or set CLEARANCE_TEST_PG=postgres://… to an existing server',
    );
    return;
  }
  // initdb refuses to run as root: the server then runs as the postgres user, in a directory it owns
  const root = process.getuid?.() === 0;
  const owner = root
    ? (() => {
        const id = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
        const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
        return id.status === 0 ? { uid: Number(id.stdout), gid: Number(gid.stdout) } : null;
      })()
    : null;
  if (root && owner === null) {
    project.provide('pgUrl', null);
    project.provide(
      'pgMissing',
      'running as root, and there is no postgres user to run the test server as (initdb refuses root)',
    );
    return;
  }
  const base = mkdtempSync(path.join(os.tmpdir(), 'clearance-pg-'));
  chmodSync(base, 0o755);
  const data = path.join(base, 'data');
  if (owner !== null) chownSync(base, owner.uid, owner.gid);
  const as = (cmd: string, args: string[]) =>
    owner === null
      ? execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' })
      : execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' });
  as('initdb', ['-D', data, '-A', 'trust', '-U', 'clearance', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  as('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(base, 'server.log'),
    '-w',
    '-o',
    `-k ${base} -c listen_addresses='' -c fsync=off -c max_connections=60`,
    'start',
  ]);
  stop = () => {
    try {
      as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  };
  project.provide('pgUrl', `postgres://clearance@/postgres?host=${base}`);
  project.provide('pgMissing', '');
};

export const teardown = (): void => {
  stop?.();
  stop = null;
};
