import type pg from 'pg';
import { isClearanceError } from '../../errors.js';
import { assertRunId } from '../safe-run-id.js';
import type { Store } from '../store.js';
import { appendPostgres, createRunPostgres, type HeldFolds } from './append.js';
import { connect, describe, isBroken, postgresFailure } from './connect.js';
import { archiveOutputPostgres, readOutputPostgres } from './objects.js';
import { foldRunPostgres, listRunsPostgres, readLogPostgres, readRunSummaryPostgres } from './read.js';
import { assertSchema, initSchema } from './tables.js';

/**
 * The PostgreSQL store over one connection. Commands run their queries one after another on it;
 * concurrency between processes is PostgreSQL's (a compare-and-set on each run's row, transactions), not ours.
 */
export const postgresStoreOn = (client: pg.Client): Store => {
  const where = describe(client);
  // every database failure is named (read-only, a missing privilege, a full disk, a lost server)
  const named =
    <A extends unknown[], T>(fn: (...args: A) => Promise<T>) =>
    (...args: A): Promise<T> =>
      fn(...args).catch((e: unknown) => {
        throw postgresFailure(client, e);
      });
  const id = assertRunId;
  const held: HeldFolds = new Map();
  return {
    kind: 'postgres',
    where,
    createRun: named((run) => createRunPostgres(client, where, { ...run, runId: id(run.runId) })),
    append: named((runId, eventsFor, options) =>
      appendPostgres(client, where, id(runId), eventsFor, options, held),
    ),
    readLog: named((runId) => readLogPostgres(client, where, id(runId))),
    foldRun: named((runId) => foldRunPostgres(client, where, id(runId))),
    readRunSummary: named((runId) => readRunSummaryPostgres(client, where, id(runId))),
    listRuns: named(() => listRunsPostgres(client)),
    archiveOutput: named((runId, bytes) => archiveOutputPostgres(client, id(runId), bytes)),
    readOutput: named((runId, sha) => readOutputPostgres(client, id(runId), sha)),
    close: () => client.end(),
  };
};

/** Connect and check the schema version: a store `store init` never prepared is refused, never created. */
const connectChecked = async (connectionString: string): Promise<pg.Client> => {
  const client = await connect(connectionString);
  try {
    await assertSchema(client);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw postgresFailure(client, e);
  }
  return client;
};

/**
 * The PostgreSQL store at a connection string, over one connection that is made again when it
 * broke since the last call (a server restart under a long `record --wait`, or under an MCP server
 * that serves for hours). A connection known broken is replaced before a call starts. A read whose
 * connection breaks under it is read again once on a new one (a read changes nothing); a write is
 * never retried: cut off mid-transaction, it may or may not have committed, so it fails as
 * `store-unavailable` and its caller reads the log to see which.
 */
export const openPostgresStore = async (connectionString: string): Promise<Store> => {
  let client = await connectChecked(connectionString);
  let store = postgresStoreOn(client);
  let reconnecting: Promise<Store> | null = null;
  /** the last call failed on a lost connection (pg's error event may not have come yet) */
  let lost = false;
  const current = async (): Promise<Store> => {
    if (!isBroken(client) && !lost) return store;
    reconnecting ??= (async () => {
      lost = false;
      await client.end().catch(() => undefined);
      client = await connectChecked(connectionString);
      store = postgresStoreOn(client);
      return store;
    })().finally(() => {
      reconnecting = null;
    });
    return reconnecting;
  };
  const via =
    <K extends keyof Store>(name: K, retry: 'read' | 'write') =>
    // biome-ignore lint/suspicious/noExplicitAny: each method keeps its own signature through the delegation
    async (...args: any[]): Promise<any> => {
      // biome-ignore lint/suspicious/noExplicitAny: as above
      const call = async () => ((await current())[name] as (...a: any[]) => Promise<any>)(...args);
      try {
        return await call();
      } catch (e) {
        if (!isClearanceError(e) || e.code !== 'store-unavailable') throw e;
        lost = true;
        if (retry === 'write') throw e;
        return call();
      }
    };
  return {
    kind: 'postgres',
    where: store.where,
    createRun: via('createRun', 'write'),
    append: via('append', 'write'),
    readLog: via('readLog', 'read'),
    foldRun: via('foldRun', 'read'),
    readRunSummary: via('readRunSummary', 'read'),
    listRuns: via('listRuns', 'read'),
    archiveOutput: via('archiveOutput', 'write'),
    readOutput: via('readOutput', 'read'),
    close: () => client.end(),
  };
};

/** `clearance store init`: create or upgrade the schema; the one path that may change it. */
export const initPostgresStore = async (
  connectionString: string,
): Promise<{ where: string; from: number | null; to: number }> => {
  const client = await connect(connectionString);
  try {
    return { where: describe(client), ...(await initSchema(client)) };
  } catch (e) {
    throw postgresFailure(client, e);
  } finally {
    await client.end().catch(() => undefined);
  }
};
