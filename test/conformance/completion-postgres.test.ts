import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { publishReportPostgres, waitForReportPostgres } from '../../src/handoff/postgres.js';
import { isClearanceError } from '../../src/index.js';
import { report } from '../support/builders.js';
import { freshDatabase } from '../support/stores.js';

const clients: pg.Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.end();
});
const connectTo = async (url: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  clients.push(client);
  return client;
};

const codeOf = async (work: Promise<unknown>): Promise<string> =>
  work.then(
    () => 'resolved',
    (e: unknown) => (isClearanceError(e) ? e.code : Promise.reject(e)),
  );

const expected = { runId: 'run-1', round: 1, inputSha: 'A'.padEnd(40, '0') };
const where = 'test database';

describe('the completion protocol over PostgreSQL', () => {
  it('wakes a waiter on another connection when the report is published, and hands back that report', async () => {
    const url = await freshDatabase();
    const [waiter, producer] = [await connectTo(url), await connectTo(url)];
    const sent = report(1, 'A');
    // a poll far longer than the deadline: only the notification can make this wait succeed
    const waiting = waitForReportPostgres(waiter, where, expected, { timeoutMs: 20_000, pollMs: 60_000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await publishReportPostgres(producer, where, sent)).toEqual({ inserted: true });
    const got = await waiting;
    expect(got.report).toEqual(sent);
  });

  it('times out with nothing published, and ignores another round', async () => {
    const url = await freshDatabase();
    const [waiter, producer] = [await connectTo(url), await connectTo(url)];
    await publishReportPostgres(producer, where, report(2, 'A'));
    expect(await codeOf(waitForReportPostgres(waiter, where, expected, { timeoutMs: 300, pollMs: 50 }))).toBe(
      'timeout',
    );
  });

  it('fails at once on an incomplete or oversized matching report', async () => {
    const url = await freshDatabase();
    const [waiter, producer] = [await connectTo(url), await connectTo(url)];
    await publishReportPostgres(producer, where, { ...report(1, 'A'), completed: false });
    expect(await codeOf(waitForReportPostgres(waiter, where, expected, { timeoutMs: 5_000 }))).toBe(
      'incomplete',
    );
    await publishReportPostgres(producer, where, { ...report(1, 'A'), reviewer: 'x'.repeat(2_000) }, 'big');
    expect(
      await codeOf(
        waitForReportPostgres(waiter, where, expected, {
          timeoutMs: 5_000,
          maxBytes: 1_000,
          reviewer: 'big',
        }),
      ),
    ).toBe('oversized');
  });

  it('takes the same report again as already there, and refuses a different one for the same key', async () => {
    const url = await freshDatabase();
    const producer = await connectTo(url);
    const sent = report(1, 'A');
    await publishReportPostgres(producer, where, sent);
    expect(await publishReportPostgres(producer, where, sent)).toEqual({ inserted: false });
    expect(
      await codeOf(publishReportPostgres(producer, where, { ...sent, decisions: [], notExamined: ['x'] })),
    ).toBe('report-exists');
    expect(await codeOf(publishReportPostgres(producer, where, { completed: true }))).toBe('malformed');
  });
});
