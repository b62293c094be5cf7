import type pg from 'pg';
import { outputShaOf } from '../../events/outputs.js';
import { fold } from '../../projections/fold.js';
import { LOG_START, parseLog } from '../log-format.js';
import { nodeDecider } from '../node-decider.js';
import {
  type RunRead,
  type RunStateRead,
  type RunStatusRead,
  type RunSummaryRead,
  summaryOfFolded,
} from '../read.js';
import { scanAndStep } from '../scan.js';
import { foldRun } from './checkpoint.js';
import { missingRunIn, readLogBytes, readRunRow } from './log.js';

/**
 * Reads take no lock and write nothing. One REPEATABLE READ transaction sees the run's row and its
 * lines at one instant, so the head can never disagree with the lines because of a racing append.
 */
const snapshot = async (client: pg.ClientBase, where: string, runId: string) => {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const row = await readRunRow(client, runId);
    if (row === null) throw missingRunIn(runId, where);
    const bytes = await readLogBytes(client, runId);
    return { head: row.head, bytes };
  } finally {
    await client.query('COMMIT').catch(() => undefined);
  }
};

const located = (where: string, runId: string, head: { seq: number; hash: string }) => ({
  runId,
  path: `${where} run ${runId}`,
  head: { state: 'ok' as const, head },
});

export const readRunPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunRead> => {
  const { head, bytes } = await snapshot(client, where, runId);
  const parsed = parseLog(bytes, head);
  return { ...parsed, ...located(where, runId, head), folded: fold(nodeDecider.evolve, parsed.events) };
};

export const foldRunFromStartPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunStateRead> => {
  const { head, bytes } = await snapshot(client, where, runId);
  const outputs: string[] = [];
  const scanned = scanAndStep(bytes, head, null, LOG_START, (event) => {
    const output = outputShaOf(event);
    if (output !== null) outputs.push(output);
  });
  return { ...scanned, ...located(where, runId, head), outputs };
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
export const foldRunFromCheckpointPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunStatusRead> => {
  const folded = await foldRun(client, runId);
  if (folded === null) throw missingRunIn(runId, where);
  return { ...folded.caught, runId, path: `${where} run ${runId}` };
};

export const readRunSummaryPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
): Promise<RunSummaryRead> =>
  summaryOfFolded(await foldRunFromCheckpointPostgres(client, where, runId), runId);
