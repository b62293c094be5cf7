// A real, throwaway PostgreSQL server in a temporary directory, on a Unix socket only (no TCP
// port): for the PostgreSQL store's tests (vitest global setup) and its benchmark. As root it runs
// as the `postgres` user, since initdb refuses root. Stopped and removed by `stop()`.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The directory holding initdb and pg_ctl, or null: $CLEARANCE_PG_BIN, Debian's layout, the PATH. */
export const postgresBinDir = () => {
  const fromEnv = process.env.CLEARANCE_PG_BIN;
  if (fromEnv && existsSync(path.join(fromEnv, 'initdb'))) return fromEnv;
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

export const MISSING_SERVER =
  'no PostgreSQL server binaries (initdb, pg_ctl) were found: install them (Debian: apt-get install postgresql) or set CLEARANCE_TEST_PG=postgres://… to an existing server';

const idOf = (flag) => {
  const out = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  return out.status === 0 ? Number(out.stdout) : null;
};

/**
 * Start a server. `durable: false` turns fsync off (tests: faster, and a crash loses nothing that
 * matters); benchmarks keep it on. Returns its connection string and how to stop it.
 */
export const startPostgres = ({ durable = false } = {}) => {
  const bin = postgresBinDir();
  if (bin === null) throw new Error(MISSING_SERVER);
  const root = process.getuid?.() === 0;
  const owner = root ? { uid: idOf('-u'), gid: idOf('-g') } : null;
  if (owner !== null && (owner.uid === null || owner.gid === null))
    throw new Error(
      'running as root and there is no postgres user to run the server as (initdb refuses root)',
    );
  const base = mkdtempSync(path.join(os.tmpdir(), 'clearance-pg-'));
  chmodSync(base, 0o755);
  if (owner !== null) chownSync(base, owner.uid, owner.gid);
  const data = path.join(base, 'data');
  const as = (cmd, args) =>
    owner === null
      ? execFileSync(path.join(bin, cmd), args, { stdio: 'pipe' })
      : execFileSync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args], { stdio: 'pipe' });
  try {
    as('initdb', ['-D', data, '-A', 'trust', '-U', 'clearance', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
    const settings = `-k ${base} -c listen_addresses='' -c max_connections=100${durable ? '' : ' -c fsync=off -c synchronous_commit=off'}`;
    as('pg_ctl', ['-D', data, '-l', path.join(base, 'server.log'), '-w', '-o', settings, 'start']);
  } catch (e) {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL server: ${e.stderr?.toString() || e.message}`);
  }
  return {
    url: `postgres://clearance@/postgres?host=${base}`,
    stop: () => {
      try {
        as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
};
