import type pg from 'pg';
import type { ClearanceError } from '../../errors.js';
import type { Head } from '../log-format.js';
import { missingRun } from '../missing-run.js';

/** A run's row: the seq and hash of its last line (the head anchor, kept in the same transaction). */
export type RunRow = Readonly<{ head: Head }>;

/** A run this database does not hold. */
export const missingRunIn = (runId: string, where: string): ClearanceError =>
  missingRun(runId, `the ${where}`);

export const readRunRow = async (client: pg.ClientBase, runId: string): Promise<RunRow | null> => {
  const result = await client.query<{ last_seq: string; head_hash: string }>(
    'SELECT last_seq, head_hash FROM clearance.runs WHERE run_id = $1',
    [runId],
  );
  const row = result.rows[0];
  return row === undefined ? null : { head: { seq: Number(row.last_seq), hash: row.head_hash } };
};

/**
 * A run's lines as the bytes of its log file would be: each line followed by `\n`. The same parser
 * then checks the chain, so a changed row is found exactly as a changed line is.
 */
export const readLogBytes = async (client: pg.ClientBase, runId: string, afterSeq = 0): Promise<Buffer> => {
  const result = await client.query<{ line: string }>(
    'SELECT line FROM clearance.events WHERE run_id = $1 AND seq > $2 ORDER BY seq',
    [runId, afterSeq],
  );
  return Buffer.from(result.rows.map((r) => `${r.line}\n`).join(''), 'utf8');
};

/** Insert lines (the encoder's text, each ending in `\n`) from `firstSeq` on. */
export const insertLines = async (
  client: pg.ClientBase,
  runId: string,
  firstSeq: number,
  text: string,
): Promise<void> => {
  const lines = text.split('\n').slice(0, -1);
  await client.query(
    `INSERT INTO clearance.events (run_id, seq, line)
     SELECT $1, $2::bigint + ordinality - 1, line FROM unnest($3::text[]) WITH ORDINALITY AS t(line, ordinality)`,
    [runId, firstSeq, lines],
  );
};
