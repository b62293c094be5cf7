// A real, throwaway PostgreSQL server in a temporary directory, on a Unix socket only (no TCP
// port): for the PostgreSQL store's tests (vitest global setup) and its benchmark. As root it runs
// as the `postgres` user, since initdb refuses root. Stopped and removed by `stop()`.
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

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

const INITDB_ARGS = ['-A', 'trust', '-U', 'clearance', '--no-sync', '-E', 'UTF8', '--locale', 'C'];

/**
 * Where a cluster fresh from initdb is kept for these binaries, under `cacheDir`: initdb is most of
 * a start, and a copy of its output is a tenth of it. The name changes when initdb does (another
 * version, an upgrade), so a stale template is never used.
 */
const templateOf = (cacheDir, bin) => {
  const initdb = statSync(path.join(bin, 'initdb'));
  const key = `${bin}-${initdb.size}-${Math.floor(initdb.mtimeMs)}-${INITDB_ARGS.join(' ')}`;
  return path.join(cacheDir, `template-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`);
};

/** execFile as a promise: a failure rejects with an error that carries the program's stderr. */
const execFileAsync = promisify(execFile);

/** `cp -a`: unlike fs.cpSync it keeps the owner (the postgres user's, when we are root) and modes. */
const copyCluster = (from, to) => execFileAsync('cp', ['-a', from, to]);

/**
 * Start a server. `durable: false` turns fsync off (tests: faster, and a crash loses nothing that
 * matters); benchmarks keep it on. `templateCache`, a directory of ours, keeps a copy of a fresh
 * cluster so that the next start copies it instead of running initdb (the tests' global setup).
 * Returns its connection string at once, `ready` (settled when the server accepts connections, or
 * rejected with why it could not start), and how to stop it. The start runs in child processes
 * while this one goes on: the tests' global setup hands out the address and lets the workers start
 * meanwhile.
 */
export const startPostgres = ({ durable = false, templateCache = null } = {}) => {
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
      ? execFileAsync(path.join(bin, cmd), args)
      : execFileAsync('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]);
  const start = async () => {
    const template = templateCache === null ? null : templateOf(templateCache, bin);
    if (template !== null && existsSync(path.join(template, 'PG_VERSION'))) await copyCluster(template, data);
    else {
      await as('initdb', ['-D', data, ...INITDB_ARGS]);
      // kept before the server first runs, so the template is a cleanly shut-down cluster; written
      // beside and renamed into place, so a half-made copy is never taken for a template
      if (template !== null) {
        try {
          mkdirSync(templateCache, { recursive: true });
          const making = `${template}.${process.pid}.tmp`;
          rmSync(making, { recursive: true, force: true });
          await copyCluster(data, making);
          renameSync(making, template);
        } catch {
          // no template this time (a read-only checkout, a race with another run): initdb next time too
        }
      }
    }
    const settings = `-k ${base} -c listen_addresses='' -c max_connections=100${durable ? '' : ' -c fsync=off -c synchronous_commit=off'}`;
    await as('pg_ctl', ['-D', data, '-l', path.join(base, 'server.log'), '-w', '-o', settings, 'start']);
  };
  const ready = start().catch((e) => {
    rmSync(base, { recursive: true, force: true });
    throw new Error(`could not start a throwaway PostgreSQL server: ${e.stderr?.toString() || e.message}`);
  });
  return {
    url: `postgres://clearance@/postgres?host=${base}`,
    ready,
    /** Stop the server (once it has started) and remove its directory. */
    stop: async () => {
      try {
        await ready;
      } catch {
        return; // it never started, and its directory is gone already
      }
      try {
        await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
};
