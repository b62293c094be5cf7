import { sha256Hex } from '@clearance/fold/internal/events/sha256.js';
import { type RunState, STATE_SHAPE_VERSION } from '@clearance/fold/internal/projections/state.js';
import type pg from 'pg';
import { type CaughtUp, foldFrom } from '../catch-up.js';
import { decodeState, encodeState } from '../checkpoint.js';
import { type Head, LOG_START } from '../log-format.js';

/**
 * A run's fold checkpoint in PostgreSQL: the state after line `seq`, kept in the run's own row
 * (`clearance.runs.checkpoint_*`, schema version 2) and rewritten, when due (`stateIsDue`), in the
 * statement that moves the head, so a fold reads the row, the line at `seq` and the few after it,
 * whatever the run's length.
 *
 * The lines stay the only truth. A checkpoint is used only when its shape is this code's
 * `STATE_SHAPE_VERSION`, its seq lies within the log, its state hashes to its `stateSha` and
 * decodes, the line at `seq` still hashes to `hash` (and, when it is the last line, agrees with
 * the head), and the lines after it check. Anything else (another shape, another hash, garbage, a
 * checkpoint ahead of the log, a damaged line after it) is ignored: the run is folded from its
 * first line, which reports any damage exactly where it is, and the next append replaces it.
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

/** A run folded to its end from one snapshot, and where it came from. */
export type RunFolded = Readonly<{
  /** the version of the run's row that snapshot saw (its `xmin`): an append writes only over it */
  version: string;
  head: Head;
  caught: CaughtUp;
  /** the seq of the checkpoint the fold started from; null when it folded every line */
  checkpointSeq: number | null;
  /** where that checkpoint's state was folded to (bytes of the log) and how long its JSON is, to say when the next is due */
  checkpointAt: Readonly<{ size: number; bytes: number }> | null;
}>;

type Row = {
  version: string;
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
  /** the lines from the checkpoint's (or from the first), each followed by `\n`: the log's bytes from there */
  lines: string | null;
};

/**
 * The run's row and its lines from `fromSeq` (null: from the row's checkpoint, or the first line
 * when it has none), in one statement: one snapshot, so the row and the lines always agree.
 */
const readRow = async (client: pg.ClientBase, runId: string, fromSeq: number | null): Promise<Row | null> => {
  const result = await client.query<Row>(
    `SELECT r.xmin::text AS version, r.last_seq, r.head_hash, r.checkpoint_seq, r.checkpoint_hash,
            r.checkpoint_shape, r.checkpoint_size, r.checkpoint_events, r.checkpoint_refused,
            r.checkpoint_state, r.checkpoint_state_sha,
            (SELECT string_agg(e.line || E'\\n', '' ORDER BY e.seq) FROM clearance.events e
              WHERE e.run_id = r.run_id AND e.seq >= coalesce($2, r.checkpoint_seq, 1)) AS lines
       FROM clearance.runs r WHERE r.run_id = $1`,
    [runId, fromSeq],
  );
  return result.rows[0] ?? null;
};

/** A bigint column as a count (pg hands bigints over as strings), or null when it is not one. */
const countOf = (value: string | null): number | null => {
  const n = value !== null && /^[0-9]{1,16}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) ? n : null;
};

/** The checkpoint, when its columns are this code's and its state decodes; its lines are checked apart. */
const decoded = (row: Row, head: Head): PgCheckpoint | null => {
  if (row.checkpoint_shape !== STATE_SHAPE_VERSION) return null;
  const seq = countOf(row.checkpoint_seq);
  const size = countOf(row.checkpoint_size);
  const events = countOf(row.checkpoint_events);
  const refused = countOf(row.checkpoint_refused);
  const hash = row.checkpoint_hash;
  if (seq === null || size === null || events === null || refused === null || hash === null) return null;
  if (seq < 1 || seq > head.seq) return null;
  // the head anchors the last line: a checkpoint there that disagrees with it is not trusted
  if (seq === head.seq && hash !== head.hash) return null;
  if (row.checkpoint_state === null || row.checkpoint_state_sha === null) return null;
  const state = decodeState(row.checkpoint_state, row.checkpoint_state_sha);
  return state === null ? null : { seq, hash, size, events, refused, state };
};

/** Fold the lines after the checkpoint's, when the checkpoint is the truth about every line before. */
const foldAfter = (row: Row, head: Head, checkpoint: PgCheckpoint): CaughtUp | null => {
  const lines = row.lines ?? '';
  const end = lines.indexOf('\n');
  if (end === -1) return null;
  const at = lines.slice(0, end);
  const lineStart = checkpoint.size - Buffer.byteLength(at) - 1;
  // the line at the checkpoint's seq is the one it folded to (a line's hash is what chains the next)
  if (lineStart < 0 || sha256Hex(at) !== checkpoint.hash) return null;
  const caught = foldFrom(lines.slice(end + 1), head, checkpoint, {
    offset: checkpoint.size,
    seq: checkpoint.seq,
    hash: checkpoint.hash,
    lineStart,
  });
  return caught.issue === null ? caught : null;
};

/**
 * Fold a run's lines to their end: from its checkpoint when that matches the lines (then the row,
 * the line at the checkpoint and any after it are read, in one statement), otherwise every line
 * from the first, in a second. Either way the lines read are checked as a reader checks them, the
 * head included. Null when there is no such run.
 */
export const catchUpRun = async (client: pg.ClientBase, runId: string): Promise<RunFolded | null> => {
  const row = await readRow(client, runId, null);
  if (row === null) return null;
  const head = { seq: Number(row.last_seq), hash: row.head_hash };
  const checkpoint = row.checkpoint_seq === null ? null : decoded(row, head);
  const caught = checkpoint === null ? null : foldAfter(row, head, checkpoint);
  if (checkpoint !== null && caught !== null)
    return {
      version: row.version,
      head,
      caught,
      checkpointSeq: checkpoint.seq,
      checkpointAt: { size: checkpoint.size, bytes: (row.checkpoint_state ?? '').length },
    };
  // the first statement read every line already when the row had no checkpoint at all
  const whole = row.checkpoint_seq === null ? row : await readRow(client, runId, 1);
  if (whole === null) return null;
  const wholeHead = { seq: Number(whole.last_seq), hash: whole.head_hash };
  return {
    version: whole.version,
    head: wholeHead,
    caught: foldFrom(whole.lines ?? '', wholeHead, null, LOG_START),
    checkpointSeq: null,
    checkpointAt: null,
  };
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
export const checkpointValues = (c: PgCheckpoint): ReadonlyArray<string | number> => checkpointRow(c).values;

/** The values of `CHECKPOINT_COLUMNS`, and how long the state's JSON among them is (when the next is due hangs on it). */
export const checkpointRow = (
  c: PgCheckpoint,
): Readonly<{ values: ReadonlyArray<string | number>; bytes: number }> => {
  const { json, sha } = encodeState(c.state);
  return {
    values: [c.seq, c.hash, STATE_SHAPE_VERSION, c.size, c.events, c.refused, json, sha],
    bytes: json.length,
  };
};
