import type pg from 'pg';
import { integrityError } from '../read.js';
import { assertRunId } from '../run-id.js';
import type { Store } from '../store.js';
import { checkImport } from '../transfer.js';
import { appendPostgres, importPostgres, openPostgres } from './append.js';
import { connect, describe, postgresFailure } from './connect.js';
import { readLogBytes } from './log.js';
import { archiveOutputPostgres, checkObjectsPostgres, readOutputPostgres } from './objects.js';
import {
  listRunsPostgres,
  readRunPostgres,
  readRunStatePostgres,
  readRunStatusPostgres,
  readRunSummaryPostgres,
} from './read.js';
import { assertSchema, initSchema } from './schema.js';

/**
 * The PostgreSQL store over one connection. Commands run their queries one after another on it;
 * concurrency between processes is PostgreSQL's (row locks, transactions), not ours.
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
  return {
    kind: 'postgres',
    where,
    logOf: (runId) => `${where} run ${id(runId)}`,
    openRun: named((opened, options) =>
      openPostgres(client, where, { ...opened, runId: id(opened.runId) }, options),
    ),
    append: named((runId, eventsFor, options) =>
      appendPostgres(client, where, id(runId), eventsFor, options),
    ),
    readRun: named((runId) => readRunPostgres(client, where, id(runId))),
    readRunState: named((runId) => readRunStatePostgres(client, where, id(runId))),
    readRunStatus: named((runId) => readRunStatusPostgres(client, where, id(runId))),
    readRunSummary: named((runId) => readRunSummaryPostgres(client, where, id(runId))),
    listRuns: named(() => listRunsPostgres(client)),
    archiveOutput: named((runId, bytes) => archiveOutputPostgres(client, id(runId), bytes)),
    checkObjects: named((runId, shas) => checkObjectsPostgres(client, id(runId), shas)),
    readOutput: named((runId, sha) => readOutputPostgres(client, id(runId), sha)),
    exportLog: named(async (runId) => {
      const read = await readRunPostgres(client, where, id(runId));
      const damaged = integrityError(read);
      if (damaged !== null) throw damaged;
      return readLogBytes(client, runId);
    }),
    importLog: named(async (runId, bytes) => {
      const parsed = checkImport(id(runId), bytes);
      await importPostgres(client, where, runId, bytes, parsed.lastSeq, parsed.lastHash);
      return parsed.events.length;
    }),
    close: () => client.end(),
  };
};

/** Connect and check the schema version: a store `store init` never prepared is refused, never created. */
export const openPostgresStore = async (connectionString: string): Promise<Store> => {
  const client = await connect(connectionString);
  try {
    await assertSchema(client);
  } catch (e) {
    await client.end().catch(() => undefined);
    throw postgresFailure(client, e);
  }
  return postgresStoreOn(client);
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
