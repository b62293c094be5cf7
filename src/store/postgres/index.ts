import type pg from 'pg';
import { integrityError } from '../read.js';
import { assertRunId } from '../run-id.js';
import type { Store } from '../store.js';
import { checkImport } from '../transfer.js';
import { appendPostgres, importPostgres, openPostgres } from './append.js';
import { connect, describe } from './connect.js';
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
  return {
    kind: 'postgres',
    where,
    logOf: (runId) => `${where} run ${assertRunId(runId)}`,
    openRun: (opened, options) =>
      openPostgres(client, where, { ...opened, runId: assertRunId(opened.runId) }, options),
    append: (runId, eventsFor, options) =>
      appendPostgres(client, where, assertRunId(runId), eventsFor, options),
    readRun: (runId) => readRunPostgres(client, where, assertRunId(runId)),
    readRunState: (runId) => readRunStatePostgres(client, where, assertRunId(runId)),
    readRunStatus: (runId) => readRunStatusPostgres(client, where, assertRunId(runId)),
    readRunSummary: (runId) => readRunSummaryPostgres(client, where, assertRunId(runId)),
    listRuns: () => listRunsPostgres(client),
    archiveOutput: (runId, bytes) => archiveOutputPostgres(client, assertRunId(runId), bytes),
    checkObjects: (runId, shas) => checkObjectsPostgres(client, assertRunId(runId), shas),
    readOutput: (runId, sha) => readOutputPostgres(client, assertRunId(runId), sha),
    exportLog: async (runId) => {
      const read = await readRunPostgres(client, where, assertRunId(runId));
      const damaged = integrityError(read);
      if (damaged !== null) throw damaged;
      return readLogBytes(client, runId);
    },
    importLog: async (runId, bytes) => {
      const parsed = checkImport(assertRunId(runId), bytes);
      await importPostgres(client, where, runId, bytes, parsed.lastSeq, parsed.lastHash);
      return parsed.events.length;
    },
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
    throw e;
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
  } finally {
    await client.end().catch(() => undefined);
  }
};
