import type pg from 'pg';
import { sha256Hex } from '../../events/sha256.js';
import { type RunState, STATE_SHAPE_VERSION } from '../../projections/state.js';
import { type CaughtUp, foldFrom } from '../catch-up.js';
import { decodeState, encodeState } from '../fold-cache.js';
import { type Head, LOG_START } from '../log-format.js';
import { readLogBytes } from './log.js';

/**
 * A run's fold checkpoint in PostgreSQL: the state after line `seq`, kept in the run's own row
 * (`clearance.runs.checkpoint_*`, schema version 2) and rewritten by every append in the statement
 * that moves the head, so an append reads the row, the line at `seq` and the lines after it,
 * whatever the run's length.
 *
 * The lines stay the only truth. A checkpoint is used only when its shape is this code's
 * `STATE_SHAPE_VERSION`, its seq lies within the log, its state hashes to its `stateSha` and
 * decodes, and the line at `seq` still hashes to `hash` (and, when it is the last line, agrees
 * with the head). Anything else (another shape, another hash, garbage, a checkpoint ahead of the
 * log) is ignored: the run is folded from its first line, and the next append replaces it.
 */
export type PgCheckpoint = Readonly<{
  seq: number;
  /** SHA-256 of line `seq`, as the chain records it */
  hash: string;
  /** the bytes of the log up to and including line `seq`'s `\n`, as a file would hold them */
  size: number;
  events: number;
  refused: number;
  state: RunState;
}>;

/** A run's row, read for a fold: its head, and its checkpoint columns as they are (not yet trusted). */
export type RunRowForFold = Readonly<{ head: Head; stored: StoredCheckpoint | null }>;

type StoredCheckpoint = Readonly<{
  seq: unknown;
  hash: unknown;
  shape: unknown;
  size: unknown;
  events: unknown;
  refused: unknown;
  state: unknown;
  stateSha: unknown;
}>;

type Row = {
  last_seq: string;
  head_hash: string;
  checkpoint_seq: string | null;
  checkpoint_hash: string | null;
  checkpoint_shape: number | null;
  checkpoint_size: string | null;
  checkpoint_events: string | null;
  checkpoint_refused: string | null;
  checkpoint_state: string | null;
  checkpoint_state_sha: string | null;
};

/** The run's row with its checkpoint; `forUpdate` takes the row's lock (an append). Null: no such run. */
export const readRunRowForFold = async (
  client: pg.ClientBase,
  runId: string,
  forUpdate: boolean,
): Promise<RunRowForFold | null> => {
  const result = await client.query<Row>(
    `SELECT last_seq, head_hash, checkpoint_seq, checkpoint_hash, checkpoint_shape, checkpoint_size,
            checkpoint_events, checkpoint_refused, checkpoint_state, checkpoint_state_sha
       FROM clearance.runs WHERE run_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [runId],
  );
  const row = result.rows[0];
  if (row === undefined) return null;
  const head = { seq: Number(row.last_seq), hash: row.head_hash };
  if (row.checkpoint_seq === null) return { head, stored: null };
  return {
    head,
    stored: {
      seq: row.checkpoint_seq,
      hash: row.checkpoint_hash,
      shape: row.checkpoint_shape,
      size: row.checkpoint_size,
      events: row.checkpoint_events,
      refused: row.checkpoint_refused,
      state: row.checkpoint_state,
      stateSha: row.checkpoint_state_sha,
    },
  };
};

/** A bigint column as a count (pg hands bigints over as strings), or null when it is not one. */
const countOf = (value: unknown): number | null => {
  const n = typeof value === 'string' && /^[0-9]{1,16}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
};

/** The checkpoint, when its columns are this code's and its state decodes; its lines are checked apart. */
const decoded = (stored: StoredCheckpoint, head: Head): PgCheckpoint | null => {
  if (stored.shape !== STATE_SHAPE_VERSION) return null;
  const seq = countOf(stored.seq);
  const size = countOf(stored.size);
  const events = countOf(stored.events);
  const refused = countOf(stored.refused);
  if (seq === null || size === null || events === null || refused === null) return null;
  if (seq < 1 || seq > head.seq || typeof stored.hash !== 'string') return null;
  // the head anchors the last line: a checkpoint there that disagrees with it is not trusted
  if (seq === head.seq && stored.hash !== head.hash) return null;
  if (typeof stored.state !== 'string' || typeof stored.stateSha !== 'string') return null;
  const state = decodeState(stored.state, stored.stateSha);
  return state === null ? null : { seq, hash: stored.hash, size, events, refused, state };
};

/** Lines as the bytes of a log file would hold them: each followed by `\n`. */
const bytesOf = (lines: ReadonlyArray<string>): Buffer =>
  Buffer.from(lines.map((line) => `${line}\n`).join(''), 'utf8');

/** A run folded to its end, and the seq of the checkpoint it started from (null: from the first line). */
export type CaughtUpPostgres = CaughtUp & Readonly<{ checkpointSeq: number | null }>;

/**
 * Fold a run's lines to their end, inside the caller's transaction (an append's, holding the row's
 * lock, or a read's snapshot): from its checkpoint when that matches the lines (then only the line
 * at its seq and those after it are fetched), otherwise every line from the first. Either way the
 * lines read are checked as a reader checks them, the head included.
 */
export const catchUpPostgres = async (
  client: pg.ClientBase,
  runId: string,
  row: RunRowForFold,
): Promise<CaughtUpPostgres> => {
  const checkpoint = row.stored === null ? null : decoded(row.stored, row.head);
  if (checkpoint !== null) {
    const result = await client.query<{ seq: string; line: string }>(
      'SELECT seq, line FROM clearance.events WHERE run_id = $1 AND seq >= $2 ORDER BY seq',
      [runId, checkpoint.seq],
    );
    const [at, ...after] = result.rows;
    const lineStart = at === undefined ? -1 : checkpoint.size - Buffer.byteLength(at.line) - 1;
    if (
      at !== undefined &&
      Number(at.seq) === checkpoint.seq &&
      sha256Hex(at.line) === checkpoint.hash &&
      lineStart >= 0
    ) {
      const caught = foldFrom(bytesOf(after.map((r) => r.line)), row.head, checkpoint, {
        offset: checkpoint.size,
        seq: checkpoint.seq,
        hash: checkpoint.hash,
        lineStart,
      });
      return { ...caught, checkpointSeq: checkpoint.seq };
    }
  }
  return { ...foldFrom(await readLogBytes(client, runId), row.head, null, LOG_START), checkpointSeq: null };
};

/** The checkpoint a fold to the end gives (null when the lines are damaged: nothing to keep). */
export const checkpointOfCaughtUp = (c: CaughtUp): PgCheckpoint | null =>
  c.issue !== null || c.lastSeq === 0
    ? null
    : {
        seq: c.lastSeq,
        hash: c.lastHash,
        size: c.size,
        events: c.events,
        refused: c.refused,
        state: c.state,
      };

/** The checkpoint columns of `clearance.runs`, in the order `checkpointValues` gives their values. */
export const CHECKPOINT_COLUMNS =
  'checkpoint_seq, checkpoint_hash, checkpoint_shape, checkpoint_size, checkpoint_events, checkpoint_refused, checkpoint_state, checkpoint_state_sha';

/** Parameters `$first` … `$(first + 7)`, one for each of `CHECKPOINT_COLUMNS`. */
export const checkpointParameters = (first: number): string =>
  Array.from({ length: 8 }, (_, i) => `$${first + i}`).join(', ');

/** The values of `CHECKPOINT_COLUMNS`: the state serialised generically, keyed by its line's hash and the shape version. */
export const checkpointValues = (c: PgCheckpoint): ReadonlyArray<string | number> => {
  const { json, sha } = encodeState(c.state);
  return [c.seq, c.hash, STATE_SHAPE_VERSION, c.size, c.events, c.refused, json, sha];
};
