/**
 * The completion protocol across machines, over the PostgreSQL store's `clearance.reports` table.
 * A report is one row per (run, round, input, reviewer), inserted once in one statement: a row that
 * exists is complete by construction, as a renamed file is. The insert notifies the channel
 * `clearance_reports`; a waiter LISTENs for it inside its one deadline, with polling behind it, and
 * reconnects within that deadline when its connection is lost.
 */

import type pg from 'pg';
import { ClearanceError } from '../errors.js';
import type { BoundedRead } from '../input/read-bounded.js';
import type { ExpectedReport } from './judge.js';
import { REPORTS_CHANNEL, type Reconnect, reportLink } from './postgres-link.js';
import { serialise } from './publish.js';
import { awaitReport, type CollectedReport } from './wait.js';
import type { WaitOptions } from './wait-budget.js';

const binding = (report: unknown): ExpectedReport | null => {
  if (typeof report !== 'object' || report === null || Array.isArray(report)) return null;
  const { runId, round, inputSha } = report as Record<string, unknown>;
  return typeof runId === 'string' && Number.isSafeInteger(round) && typeof inputSha === 'string'
    ? { runId, round: round as number, inputSha }
    : null;
};

export type PublishedRow = Readonly<{ inserted: boolean }>;

/**
 * Publish a report into the store. The same bytes published again are already there (`inserted`
 * false); different bytes for a key that holds a report are refused: a published report is final.
 */
export const publishReportPostgres = async (
  client: pg.ClientBase,
  where: string,
  report: unknown,
  reviewer = '',
): Promise<PublishedRow> => {
  const text = serialise(where, report);
  const key = binding(report);
  if (key === null) {
    throw new ClearanceError(
      'malformed',
      `cannot publish into the ${where}: a report needs runId (a string), round (an integer) and inputSha (a string) to be found by its waiter`,
    );
  }
  const body = Buffer.from(text, 'utf8');
  await client.query('BEGIN');
  try {
    const inserted = await client.query(
      `INSERT INTO clearance.reports (run_id, round, input_sha, reviewer, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [key.runId, key.round, key.inputSha, reviewer, body],
    );
    if (inserted.rowCount === 0) {
      const existing = await client.query<{ body: Buffer }>(
        'SELECT body FROM clearance.reports WHERE run_id = $1 AND round = $2 AND input_sha = $3 AND reviewer = $4',
        [key.runId, key.round, key.inputSha, reviewer],
      );
      await client.query('ROLLBACK');
      if (existing.rows[0]?.body.equals(body) === true) return { inserted: false };
      throw new ClearanceError(
        'report-exists',
        `a different report of run ${key.runId}, round ${key.round}, input ${key.inputSha}${reviewer === '' ? '' : ` by ${reviewer}`} is already published in the ${where}: a published report is final`,
        { ...key, reviewer },
      );
    }
    // delivered on COMMIT, only if the row is really there
    await client.query('SELECT pg_notify($1, $2)', [REPORTS_CHANNEL, key.runId]);
    await client.query('COMMIT');
    return { inserted: true };
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
};

export type PostgresWaitOptions = WaitOptions &
  Readonly<{
    /** whose report, among several of one round; '' for the one report */
    reviewer?: string;
    /** without it, a lost connection ends the wait as `store-unavailable` */
    reconnect?: Reconnect;
  }>;

/** The one look: the size first, so never more than maxBytes + 1 bytes leave the server. */
const readReport = async (
  client: pg.Client,
  expected: ExpectedReport,
  reviewer: string,
  maxBytes: number,
): Promise<BoundedRead> => {
  const found = await client.query<{ size: number; body: Buffer | null }>(
    `SELECT octet_length(body) AS size, CASE WHEN octet_length(body) <= $5 THEN body END AS body
     FROM clearance.reports WHERE run_id = $1 AND round = $2 AND input_sha = $3 AND reviewer = $4`,
    [expected.runId, expected.round, expected.inputSha, reviewer, maxBytes],
  );
  const row = found.rows[0];
  if (row === undefined) return { kind: 'missing' };
  if (row.body === null) return { kind: 'oversized', bytes: row.size, bytesRead: 0 };
  return { kind: 'read', bytes: row.body };
};

/**
 * Wait for a report published into the store, with the same deadline, bounds and failures as the
 * file protocol (timeout 3; malformed, incomplete or oversized 4). `client` must be a connection
 * of its own: it LISTENs for the whole wait. A lost connection is made again with `reconnect`,
 * inside the same deadline; a store that cannot be reached again before it ends the wait as
 * `store-unavailable`.
 */
export const waitForReportPostgres = async (
  client: pg.Client,
  where: string,
  expected: ExpectedReport,
  options: PostgresWaitOptions = {},
): Promise<CollectedReport> => {
  const { reviewer = '', reconnect, ...wait } = options;
  const link = reportLink(client, where, expected.runId, reconnect, wait.signal);
  try {
    return await awaitReport(
      {
        where: `the ${where}`,
        look: (maxBytes, deadline) =>
          link.look(deadline, (listening) => readReport(listening, expected, reviewer, maxBytes)),
        notifier: link.notifier,
      },
      expected,
      wait,
    );
  } finally {
    await link.close();
  }
};
