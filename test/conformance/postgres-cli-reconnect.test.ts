import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { initSchema } from '../../src/store/postgres/tables.js';
import { type CliResult, cli, spawnCli } from '../support/cli.js';
import { adminOf } from '../support/pg-admin.js';
import {
  blockedBackend,
  databaseOf,
  terminate,
  terminateClearanceBackends,
  waitingBackend,
} from '../support/pg-backends.js';
import { freshDatabase } from '../support/stores.js';
import { type ThrowawayServer, throwawayServer } from '../support/throwaway-postgres.js';

/**
 * `clearance wait` and `record --wait` on a PostgreSQL store whose connections are taken away:
 * a terminated backend, a server restarting under them, a server gone for good. None may end as an
 * internal error (70) with a stack trace.
 */

const suiteAdmin = async (): Promise<pg.Client> => {
  const url = inject('pgUrl');
  if (url === null) throw new Error(`the PostgreSQL store's tests need a server: ${inject('pgMissing')}`);
  return adminOf(url);
};

const servers: ThrowawayServer[] = [];
const admins: pg.Client[] = [];
const children: number[] = [];
afterEach(async () => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid); // a command this test started and did not see end (it failed first)
    } catch {
      // gone already
    }
  }
  for (const client of admins.splice(0)) await client.end().catch(() => undefined);
  for (const server of servers.splice(0)) await server.remove();
});

const INPUT = 'a'.repeat(40);
const round1 = { runId: 'r', round: 1, inputSha: INPUT, completed: true, candidates: [], decisions: [] };

/** A run `r` opened on the store at `url`, its first round captured (input INPUT). */
const openRun = async (url: string): Promise<void> => {
  const opened = await cli([
    'open',
    'r',
    '--policy',
    'default',
    '--input-sha',
    INPUT,
    '--store',
    url,
    '--json',
  ]);
  expect(opened.code, opened.stdout).toBe(0);
};

const publish = async (url: string): Promise<void> => {
  const published = await cli(['publish', url, '--report', '-', '--json'], { input: JSON.stringify(round1) });
  expect(published.code, published.stdout).toBe(0);
};

const exported = async (url: string): Promise<string> => (await cli(['export', 'r', '--store', url])).stdout;

/**
 * The wait backend of a command under way (see waitingBackend), or why there is none: a command
 * that ended first fails the test with what it printed.
 */
const listenerOf = (
  command: Promise<CliResult>,
  admin: pg.Client,
  database: string,
  except: ReadonlyArray<number> = [],
): Promise<number> =>
  Promise.race([
    waitingBackend(admin, database, except),
    command.then((r) => {
      throw new Error(`the command ended before it waited (exit ${r.code}): ${r.stdout}${r.stderr}`);
    }),
  ]);

/** What a failure printed: a named error, never a stack trace, never the password. */
const expectNamedFailure = (result: CliResult, code: string, exit: number): void => {
  const printed = result.stdout + result.stderr;
  expect(result.code, printed).toBe(exit);
  expect(printed).not.toMatch(/\n\s+at /);
  expect(printed).not.toContain('internal error');
  expect(printed).not.toContain('s3cret');
  expect(printed).toContain(`[${code}]`);
};

/** A throwaway server with the store schema in its `postgres` database. */
const ownServer = async (): Promise<{ server: ThrowawayServer; admin: () => Promise<pg.Client> }> => {
  const server = await throwawayServer();
  servers.push(server);
  const admin = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: server.url });
    client.on('error', () => undefined); // taken down with the server, on purpose
    await client.connect();
    admins.push(client);
    return client;
  };
  const init = await admin();
  await initSchema(init);
  await init.end();
  return { server, admin };
};

describe('record --wait on PostgreSQL when its wait loses the connection', () => {
  it('reconnects after the wait backend is terminated and records the report published then (exit 0)', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    await openRun(url);
    const recording = cli(['record', 'r', '--wait', url, '--timeout-ms', '30000', '--store', url, '--json']);
    const first = await listenerOf(recording, await suiteAdmin(), database);
    await terminate(await suiteAdmin(), first);
    await listenerOf(recording, await suiteAdmin(), database, [first]);
    await publish(url);
    const recorded = await recording;
    expect(recorded.code, recorded.stdout + recorded.stderr).toBe(0);
    expect(recorded.json).toMatchObject({ ok: true, round: 1 });
    expect((await cli(['status', 'r', '--store', url, '--json'])).json).toMatchObject({ round: 1 });
  });

  it('when every connection is cut (a restart), the wait and the store both connect again and the report is recorded (exit 0)', async () => {
    const url = (await freshDatabase()).replace('//clearance@', '//clearance:s3cret@');
    const database = databaseOf(url);
    await openRun(url);
    const before = await exported(url);
    const recording = cli(['record', 'r', '--wait', url, '--timeout-ms', '30000', '--store', url]);
    const first = await listenerOf(recording, await suiteAdmin(), database);
    expect(await terminateClearanceBackends(await suiteAdmin(), database)).toBe(2); // the store's and the wait's
    await listenerOf(recording, await suiteAdmin(), database, [first]);
    await publish(url);
    const recorded = await recording;
    expect([recorded.code, recorded.stderr]).toEqual([0, '']);
    expect(recorded.stdout).toContain('round 1 of r recorded');
    // the store's own connection broke under the wait: it was made again before the append
    const after = await exported(url);
    expect(after.startsWith(before)).toBe(true);
    expect(after.length).toBeGreaterThan(before.length);
  });
});

describe('a command whose store connection is lost in the middle of an append', () => {
  it('capture: its backend terminated while it waits for the run row lock; store-unavailable (69), nothing written', async () => {
    const url = (await freshDatabase()).replace('//clearance@', '//clearance:s3cret@');
    const database = databaseOf(url);
    await openRun(url);
    const before = await exported(url);
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT 1 FROM clearance.runs WHERE run_id = 'r' FOR UPDATE");
      const capturing = cli(['capture', 'r', '--input-sha', 'b'.repeat(40), '--store', url]);
      await terminate(await suiteAdmin(), await blockedBackend(await suiteAdmin(), database));
      const captured = await capturing;
      expectNamedFailure(captured, 'store-unavailable', 69);
      expect(captured.stderr).toContain(`lost the connection to the postgres database ${database}`);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await exported(url)).toBe(before);
  });
});

describe('the built CLI waiting on a PostgreSQL server that restarts or goes away', () => {
  it('wait: the server restarts under it; it reconnects and prints the report published after (exit 0)', async () => {
    const { server, admin } = await ownServer();
    const waiting = spawnCli([
      'wait',
      server.url,
      '--run',
      'r',
      '--round',
      '1',
      '--input-sha',
      INPUT,
      '--timeout-ms',
      '40000',
      '--poll-ms',
      '600000',
      '--json',
    ]);
    children.push(waiting.pid);
    const before = await admin();
    await listenerOf(waiting.result, before, 'postgres');
    await before.end();
    await server.restart();
    // a new server, new backends: any wait found listening has reconnected
    const after = await admin();
    await listenerOf(waiting.result, after, 'postgres');
    await after.end();
    await publish(server.url);
    const done = await waiting.result;
    expect(done.code, done.stdout + done.stderr).toBe(0);
    expect(done.json).toMatchObject({ report: round1 });
  });

  it('record --wait: the server stops for the rest of the deadline; it ends as store-unavailable (69), naming the problem', async () => {
    const { server, admin } = await ownServer();
    const url = server.url.replace('//clearance@', '//clearance:s3cret@');
    await openRun(url);
    const recording = spawnCli(['record', 'r', '--wait', url, '--timeout-ms', '5000', '--store', url]);
    children.push(recording.pid);
    const watcher = await admin();
    await listenerOf(recording.result, watcher, 'postgres');
    await watcher.end();
    await server.stop();
    const recorded = await recording.result;
    expectNamedFailure(recorded, 'store-unavailable', 69);
    expect(recorded.stderr).toContain('lost the connection to the postgres database postgres');
    expect(recorded.stderr).toContain('could not reconnect');
    expect(recorded.stderr).toMatch(/ENOENT|ECONNREFUSED/);
  });
});
