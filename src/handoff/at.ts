import type { ExpectedReport } from './judge.js';
import { publishReport } from './publish.js';
import { type CollectedReport, waitForReport } from './wait.js';
import type { WaitOptions } from './wait-budget.js';

/** A store URL in place of a path: the report travels through PostgreSQL, across machines. */
const isPostgresUrl = (where: string): boolean => /^postgres(ql)?:\/\//i.test(where);

/**
 * A client on the store, its schema checked, for one completion step, and how to make another
 * like it (a wait reconnects with it); the client is loaded only here.
 */
const withClient = async <T>(
  url: string,
  fn: (
    client: import('pg').Client,
    where: string,
    reconnect: (timeoutMs: number) => Promise<import('pg').Client>,
  ) => Promise<T>,
): Promise<T> => {
  const { connect, describe, postgresFailure } = await import('../store/postgres/connect.js');
  const { assertSchema } = await import('../store/postgres/tables.js');
  const open = async (timeoutMs?: number) => {
    const client = await connect(url, timeoutMs === undefined ? {} : { timeoutMs });
    try {
      await assertSchema(client);
      return client;
    } catch (e) {
      await client.end().catch(() => undefined);
      throw postgresFailure(client, e);
    }
  };
  const client = await open();
  try {
    return await fn(client, describe(client), open);
  } catch (e) {
    throw postgresFailure(client, e);
  } finally {
    await client.end().catch(() => undefined);
  }
};

/**
 * Publish a report at a path (atomic rename) or into a PostgreSQL store (one row, inserted once).
 * `reviewer` names whose report it is among several; a file path is itself the name.
 */
export const publishReportAt = async (where: string, report: unknown, reviewer = ''): Promise<void> => {
  if (!isPostgresUrl(where)) return publishReport(where, report);
  const { publishReportPostgres } = await import('./postgres.js');
  await withClient(where, (client, described) => publishReportPostgres(client, described, report, reviewer));
};

/** Wait for a report at a path or in a PostgreSQL store: one protocol, one deadline, the same failures. */
export const waitForReportAt = async (
  where: string,
  expected: ExpectedReport,
  options: WaitOptions & { reviewer?: string } = {},
): Promise<CollectedReport> => {
  if (!isPostgresUrl(where)) return waitForReport(where, expected, options);
  const { waitForReportPostgres } = await import('./postgres.js');
  return withClient(where, (client, described, reconnect) =>
    waitForReportPostgres(client, described, expected, { ...options, reconnect }),
  );
};

/**
 * A report location as it may be printed: a path as it is; a store URL without its user, password
 * or query (a password may sit in any of them).
 */
export const printableLocation = (where: string): string =>
  isPostgresUrl(where) ? where.replace(/\/\/[^@/]*@/, '//').replace(/\?.*$/, '') : where;
