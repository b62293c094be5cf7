import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { postgresBinDir, startPostgres } from '../../scripts/postgres-server.mjs';
import { TEMPLATE_CACHE } from './postgres-server.js';

const execFileAsync = promisify(execFile);

/**
 * A PostgreSQL server of one test's own, to stop or restart under a command: the suite's server is
 * shared by every worker, so no test may take it down. Started from the suite's cached cluster
 * (about half a second). `remove` stops it if it runs and deletes its directory.
 */
export type ThrowawayServer = Readonly<{
  /** the `postgres` database on it, over its Unix socket */
  url: string;
  /** `pg_ctl restart -m fast`: every backend terminated, then the same server on the same socket */
  restart: () => Promise<void>;
  /** `pg_ctl stop -m fast`: every backend terminated, the socket gone */
  stop: () => Promise<void>;
  remove: () => Promise<void>;
}>;

export const throwawayServer = async (): Promise<ThrowawayServer> => {
  const server = startPostgres({ templateCache: TEMPLATE_CACHE });
  await server.ready;
  const base = new URLSearchParams(server.url.slice(server.url.indexOf('?'))).get('host');
  const bin = postgresBinDir();
  if (base === null || bin === null) throw new Error(`cannot tell where the server of ${server.url} lives`);
  const pgCtl = async (...args: string[]): Promise<void> => {
    const command = [path.join(bin, 'pg_ctl'), '-D', path.join(base, 'data'), ...args];
    // initdb refused root, so the server runs as postgres (scripts/postgres-server.mjs) and so must pg_ctl
    await (process.getuid?.() === 0
      ? execFileAsync('runuser', ['-u', 'postgres', '--', ...command])
      : execFileAsync(command[0] as string, command.slice(1)));
  };
  let running = true;
  return {
    url: server.url,
    // restart takes the options of the last start from postmaster.opts: the same socket, no TCP
    restart: () => pgCtl('-m', 'fast', '-w', '-l', path.join(base, 'server.log'), 'restart'),
    stop: async () => {
      await pgCtl('-m', 'fast', '-w', 'stop');
      running = false;
    },
    remove: async () => {
      if (running) await server.stop();
      else await server.stop().catch(() => undefined); // pg_ctl finds nothing to stop; the directory goes
    },
  };
};
