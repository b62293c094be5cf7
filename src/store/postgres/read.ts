import type pg from 'pg';
import { type LogBytes, type RunStatusRead, type RunSummaryRead, summaryOfFolded } from '../read.js';
import { catchUpRun } from './checkpoint.js';
import { missingRunIn, readLogBytes, readRunRow } from './log.js';

/**
 * The PostgreSQL store's `readLog`: the run's lines as the bytes of its log, and its head. Takes no
 * lock and writes nothing. One REPEATABLE READ transaction sees the run's row and its lines at one
 * instant, so the head can never disagree with the lines because of a racing append.
 */
export const readLogPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<LogBytes> => {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const row = await readRunRow(client, runId);
    if (row === null) throw missingRunIn(runId, where);
    const bytes = await readLogBytes(client, runId);
    return { runId, path: `${where} run ${runId}`, head: { state: 'ok', head: row.head }, bytes };
  } finally {
    await client.query('COMMIT').catch(() => undefined);
  }
};

export const listRunsPostgres = async (client: pg.ClientBase): Promise<ReadonlyArray<string>> => {
  const result = await client.query<{ run_id: string }>(
    'SELECT run_id FROM clearance.runs ORDER BY run_id COLLATE "C"',
  );
  return result.rows.map((r) => r.run_id);
};

/**
 * Where a run stands: from its checkpoint when that matches its lines (one statement reads the
 * row, the line at the checkpoint and those after it, in one snapshot), otherwise every line
 * folded. Reads only: the checkpoint is the appenders' to keep.
 */
export const foldRunPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunStatusRead> => {
  const folded = await catchUpRun(client, runId);
  if (folded === null) throw missingRunIn(runId, where);
  return { ...folded.caught, runId, path: `${where} run ${runId}` };
};

export const readRunSummaryPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunSummaryRead> => summaryOfFolded(await foldRunPostgres(client, where, runId), runId);
