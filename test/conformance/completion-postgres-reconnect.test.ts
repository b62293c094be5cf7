import pg from 'pg';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { publishReportAt, waitForReportAt } from '../../src/handoff/at.js';
import { publishReportPostgres } from '../../src/handoff/postgres.js';
import type { CollectedReport } from '../../src/handoff/wait.js';
import { type ClearanceError, isClearanceError } from '../../src/index.js';
import { report } from '../support/builders.js';
import { adminOf } from '../support/pg-admin.js';
import { allowConnections, databaseOf, terminate, waitingBackend } from '../support/pg-backends.js';
import { freshDatabase } from '../support/stores.js';

/**
 * A wait for a report in a PostgreSQL store whose connection is taken away: a backend
 * terminated by an administrator, connections refused for a while, the database dropped. The wait
 * reconnects within its one deadline, listens again and reads again; only a store it cannot reach
 * again before the deadline ends it, as `store-unavailable`.
 */

const admin = async (): Promise<pg.Client> => {
  const url = inject('pgUrl');
  if (url === null) throw new Error(`the PostgreSQL store's tests need a server: ${inject('pgMissing')}`);
  return adminOf(url);
};

const clients: pg.Client[] = [];
const refused: string[] = [];
afterEach(async () => {
  for (const database of refused.splice(0)) await allowConnections(await admin(), database, true);
  for (const c of clients.splice(0)) await c.end();
});

type Outcome = { report: CollectedReport['report'] } | { error: ClearanceError };

/** The wait's outcome as a value, so a test may go on while it runs and no rejection goes unhandled. */
const settled = (waiting: Promise<CollectedReport>): Promise<Outcome> =>
  waiting.then(
    ({ report }) => ({ report }),
    (error: unknown) => (isClearanceError(error) ? { error } : Promise.reject(error)),
  );

const expected = { runId: 'run-1', round: 1, inputSha: 'A'.padEnd(40, '0') };
const sent = report(1, 'A');
/** far longer than any deadline here: a wait that finds the report did so by a NOTIFY or by a look it made itself */
const NEVER = 600_000;

describe('a wait on PostgreSQL that loses its connection', () => {
  it('reconnects after its backend is terminated (twice), listens again, and is woken by the report published then', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    const waiting = settled(waitForReportAt(url, expected, { timeoutMs: 30_000, pollMs: NEVER }));
    const first = await waitingBackend(await admin(), database);
    await terminate(await admin(), first);
    const second = await waitingBackend(await admin(), database, [first]);
    await terminate(await admin(), second);
    // listening again on a third connection: only its NOTIFY can end this wait before the deadline
    await waitingBackend(await admin(), database, [first, second]);
    await publishReportAt(url, sent);
    expect(await waiting).toEqual({ report: sent });
  });

  it('finds a report published while it could not reconnect, by reading again once it has', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    const producer = new pg.Client({ connectionString: url });
    await producer.connect(); // before connections are refused: a producer already connected goes on
    clients.push(producer);
    const waiting = settled(waitForReportAt(url, expected, { timeoutMs: 30_000, pollMs: NEVER }));
    const backend = await waitingBackend(await admin(), database);
    await allowConnections(await admin(), database, false);
    refused.push(database);
    await terminate(await admin(), backend);
    // the NOTIFY of this insert reaches no connection of the wait's: it has none until connections are allowed
    expect(await publishReportPostgres(producer, 'test database', sent)).toEqual({ inserted: true });
    await allowConnections(await admin(), database, true);
    expect(await waiting).toEqual({ report: sent });
  });

  it('ends as store-unavailable at its deadline when the database refuses connections for the rest of it', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    const waiting = settled(waitForReportAt(url, expected, { timeoutMs: 5_000, pollMs: NEVER }));
    const backend = await waitingBackend(await admin(), database);
    await allowConnections(await admin(), database, false);
    refused.push(database);
    await terminate(await admin(), backend);
    const outcome = await waiting;
    if (!('error' in outcome)) throw new Error('the wait returned a report no one published');
    expect(outcome.error.code).toBe('store-unavailable');
    expect(outcome.error.message).toContain(`postgres database ${database}`);
    expect(outcome.error.message).toContain('terminating connection due to administrator command');
    expect(outcome.error.message).toContain('not currently accepting connections');
    expect(outcome.error.message).not.toMatch(/\n\s+at /);
    // it kept trying until the deadline, and no longer
    expect(outcome.error.details).toMatchObject({
      store: expect.stringContaining(database),
      timeoutMs: 5_000,
    });
    expect(outcome.error.details.waitedMs).toBeGreaterThanOrEqual(5_000);
  });

  it('ends as store-unavailable at once when its database is dropped: reconnecting cannot bring it back', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    const waiting = settled(waitForReportAt(url, expected, { timeoutMs: 50_000, pollMs: NEVER }));
    await waitingBackend(await admin(), database);
    await (await admin()).query(`DROP DATABASE "${database}" WITH (FORCE)`);
    const outcome = await waiting;
    if (!('error' in outcome)) throw new Error('the wait returned a report no one published');
    expect(outcome.error.code).toBe('store-unavailable');
    expect(outcome.error.message).toContain(`database "${database}" does not exist`);
    expect(outcome.error.details.waitedMs).toBeLessThan(50_000);
  });

  it('stops reconnecting when it is aborted, and says it was aborted', async () => {
    const url = await freshDatabase();
    const database = databaseOf(url);
    const abort = new AbortController();
    const waiting = settled(
      waitForReportAt(url, expected, { timeoutMs: 50_000, pollMs: NEVER, signal: abort.signal }),
    );
    const backend = await waitingBackend(await admin(), database);
    await allowConnections(await admin(), database, false);
    refused.push(database);
    await terminate(await admin(), backend);
    abort.abort(new Error('interrupted'));
    const outcome = await waiting;
    if (!('error' in outcome)) throw new Error('the wait returned a report no one published');
    expect(outcome.error.code).toBe('aborted');
    expect(outcome.error.details.waitedMs).toBeLessThan(50_000);
  });
});
