import type pg from 'pg';
import { ClearanceError } from '../../errors.js';
import type { AppendResult } from '../append.js';
import { stateIsDue } from '../checkpoint.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../lock.js';
import type { Encoded } from '../log-format.js';
import type { NewRun } from '../open-run.js';
import { type AppendPlan, checkExpectedSeq, type EventsFor, planAppend } from '../plan-append.js';
import { integrityError } from '../read.js';
import {
  CHECKPOINT_COLUMNS,
  catchUpRun,
  checkpointOfCaughtUp,
  checkpointParameters,
  checkpointRow,
  checkpointValues,
  type PgCheckpoint,
  type RunFolded,
} from './checkpoint.js';
import { insertLines, missingRunIn } from './log.js';

type Options = Readonly<{ by: string; expectedSeq?: number; now?: () => Date; timeoutMs?: number }>;

const LOCK_NOT_AVAILABLE = '55P03';
/**
 * When the run's checkpoint is due: once the lines after it are as long as its state's JSON. A
 * state written to the row costs the server its compression, TOAST and WAL (about 5 ms for 200 KB
 * here), far more than the file's `pwrite`, so it is written less often than the file's (a
 * quarter); a fold then reads at most that much of the run's lines after it.
 */
const SHARE = 1;
const UNIQUE_VIOLATION = '23505';
/** PostgreSQL's largest `lock_timeout`, in ms (an int) */
const MAX_LOCK_TIMEOUT_MS = 2_147_483_647;

/** Run `fn` in one transaction; roll back on any failure. */
const transaction = async <T>(client: pg.ClientBase, fn: () => Promise<T>): Promise<T> => {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
};

/** The `lock_timeout` each connection was last given, so that an append sets it only when it changes. */
const lockTimeouts = new WeakMap<pg.ClientBase, number>();

/**
 * How long an append's write may wait for the run's row (another writer's statement, or anyone's
 * transaction holding it): the session's `lock_timeout`. Written into the statement as an integer
 * this function made, never caller text; a timeout past PostgreSQL's largest waits as long as it allows.
 */
const setLockTimeout = async (client: pg.ClientBase, timeoutMs: number): Promise<void> => {
  const ms = Number.isNaN(timeoutMs)
    ? DEFAULT_LOCK_TIMEOUT_MS
    : Math.min(MAX_LOCK_TIMEOUT_MS, Math.max(1, Math.ceil(timeoutMs)));
  if (lockTimeouts.get(client) === ms) return;
  await client.query(`SET lock_timeout = ${ms}`);
  lockTimeouts.set(client, ms);
};

/**
 * The new lines, the head and (when `checkpoint` is given) the checkpoint in one statement,
 * committed on its own, and only over the version of the run's row the fold read (compare-and-set
 * on its `xmin`): if anyone changed the row since (another append, a line changed under the
 * trigger that forgets the checkpoint), nothing is written and the answer is null. Otherwise the
 * answer is the row's version this write made, which the next append of this process writes over.
 */
const writeOver = async (
  client: pg.ClientBase,
  runId: string,
  version: string,
  after: Readonly<{ seq: number }>,
  encoded: Encoded,
  checkpoint: ReadonlyArray<string | number> | null,
): Promise<string | null> => {
  const lines = encoded.text.split('\n').slice(0, -1);
  const keep = checkpoint === null ? '' : `, (${CHECKPOINT_COLUMNS}) = (${checkpointParameters(7)})`;
  const result = await client.query<{ version: string | null; written: string }>(
    `WITH moved AS (
       UPDATE clearance.runs SET last_seq = $4, head_hash = $5${keep}
        WHERE run_id = $1 AND xmin = $6::text::xid
       RETURNING run_id, xmin::text AS version),
     written AS (
       INSERT INTO clearance.events (run_id, seq, line)
       SELECT moved.run_id, $2::bigint + ordinality - 1, line
         FROM moved, unnest($3::text[]) WITH ORDINALITY AS t(line, ordinality)
       RETURNING seq)
     SELECT (SELECT version FROM moved) AS version, (SELECT count(*) FROM written) AS written`,
    [runId, after.seq + 1, lines, encoded.lastSeq, encoded.lastHash, version, ...(checkpoint ?? [])],
  );
  const row = result.rows[0];
  return row !== undefined && row.version !== null && Number(row.written) === lines.length
    ? row.version
    : null;
};

/**
 * The folds this store's own appends reached, by run: the state after the last line it wrote and
 * the row version that write made. An append plans from it without reading the run, and writes
 * only over that version: the database confirms it or nothing is written (any other append, a
 * line changed under the trigger, moves the version), and then the run is folded from the
 * database as if nothing were held. A refusal is never answered from it: a plan it refuses, or
 * finds already recorded, is made again from a fresh fold.
 */
export type HeldFolds = Map<string, RunFolded>;

/** The fold after a write: the state its plan made, at the new head, over the version it made. */
const heldAfter = (
  before: RunFolded,
  encoded: Encoded,
  state: RunFolded['caught']['state'],
  version: string,
  kept: Readonly<{ bytes: number }> | null,
): RunFolded => {
  const bytes = Buffer.byteLength(encoded.text);
  const lastLine = encoded.text.slice(encoded.text.lastIndexOf('\n', encoded.text.length - 2) + 1);
  const size = before.caught.size + bytes;
  return {
    version,
    head: { seq: encoded.lastSeq, hash: encoded.lastHash },
    checkpointSeq: kept === null ? before.checkpointSeq : encoded.lastSeq,
    checkpointAt: kept === null ? before.checkpointAt : { size, bytes: kept.bytes },
    caught: {
      ...before.caught,
      size,
      lastLineStart: size - Buffer.byteLength(lastLine),
      lastSeq: encoded.lastSeq,
      lastHash: encoded.lastHash,
      tornTail: null,
      issue: null,
      beyondHead: 0,
      state,
      events: before.caught.events + encoded.stored.length,
      fromCheckpoint: true,
    },
  };
};

/** Keep the checkpoint a fold reached that wrote nothing, over the row it read (if it moved since, its mover kept one). */
const keepCheckpoint = (client: pg.ClientBase, runId: string, version: string, checkpoint: PgCheckpoint) =>
  client.query(
    `UPDATE clearance.runs SET (${CHECKPOINT_COLUMNS}) = (${checkpointParameters(3)})
      WHERE run_id = $1 AND xmin = $2::text::xid`,
    [runId, version, ...checkpointValues(checkpoint)],
  );

/**
 * Append to a run in PostgreSQL, optimistically: fold the run from its checkpoint (`catchUpRun`: one
 * statement, one snapshot), apply the same integrity refusal, expected-seq check and `evolve`
 * checks as the file store, then write the new lines, the head and the checkpoint in one statement
 * that commits only over the row version the fold read. When another append won meanwhile, fold
 * again and build the events anew (an expected seq then refuses); past `timeoutMs` of that, or of
 * waiting for the row, `lock-timeout`. Two round trips in all, whatever the run's length; one when
 * this store's own last write to the run is still the row's version (`held`). Resolves only after
 * the write committed.
 */
export const appendPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
  eventsFor: EventsFor,
  options: Options,
  held: HeldFolds = new Map(),
): Promise<AppendResult> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  const timedOut = () =>
    new ClearanceError(
      'lock-timeout',
      `could not lock run ${runId} in the ${where} within ${timeoutMs} ms: another clearance process is appending to it`,
      { runId, timeoutMs },
    );
  try {
    await setLockTimeout(client, timeoutMs);
    for (;;) {
      const known = held.get(runId);
      held.delete(runId);
      // what this store last wrote: planned from, and written only if the database confirms it
      const fromHeld = known !== undefined ? planFromHeld(known, runId, eventsFor, options) : null;
      const folded = fromHeld?.folded ?? (await catchUpRun(client, runId));
      if (folded === null) throw missingRunIn(runId, where);
      const { caught } = folded;
      const damaged = integrityError({ issue: caught.issue, path: `${where} run ${runId}`, runId });
      if (damaged !== null) throw damaged;
      checkExpectedSeq(runId, caught.lastSeq, options.expectedSeq);
      const plan =
        fromHeld?.plan ??
        planAppend(caught.state, { seq: caught.lastSeq, hash: caught.lastHash }, eventsFor, options);
      if (plan.kind !== 'write') {
        const checkpoint = checkpointOfCaughtUp(caught);
        // a checkpoint missing, untrusted or due: keep the one this fold reached, as an append would
        if (
          checkpoint !== null &&
          (folded.checkpointAt === null || stateIsDue(folded.checkpointAt, caught, SHARE))
        )
          await keepCheckpoint(client, runId, folded.version, checkpoint);
        return {
          appended: [],
          folded: { state: caught.state, trail: [] },
          repairedTail: null,
          alreadyRecorded: plan.kind === 'already-recorded',
        };
      }
      const { encoded } = plan;
      const size = caught.size + Buffer.byteLength(encoded.text);
      // the state is written again only once the lines after the row's checkpoint reach a quarter of it
      const due = folded.checkpointAt === null || stateIsDue(folded.checkpointAt, { size }, SHARE);
      const checkpoint: PgCheckpoint | null = due
        ? {
            seq: encoded.lastSeq,
            hash: encoded.lastHash,
            size,
            events: caught.events + encoded.stored.length,
            refused: caught.refused,
            state: plan.folded.state,
          }
        : null;
      const kept = checkpoint === null ? null : checkpointRow(checkpoint);
      const version = await writeOver(
        client,
        runId,
        folded.version,
        { seq: caught.lastSeq },
        encoded,
        kept?.values ?? null,
      );
      if (version !== null) {
        held.set(runId, heldAfter(folded, encoded, plan.folded.state, version, kept));
        return { appended: encoded.stored, folded: plan.folded, repairedTail: null, alreadyRecorded: false };
      }
      // a held fold the row moved past is simply dropped; a fresh fold that lost a race waits its turn
      if (fromHeld === null && performance.now() > deadline) throw timedOut();
    }
  } catch (e) {
    if ((e as { code?: string }).code === LOCK_NOT_AVAILABLE) throw timedOut();
    throw e;
  }
};

/**
 * A plan from a held fold, or null when there is nothing to write from it: a refusal, an expected
 * seq it does not meet, a retry, an empty step. The database has not confirmed the held fold, so
 * none of those is answered from it; the append folds the run afresh and decides again.
 */
const planFromHeld = (
  known: RunFolded,
  runId: string,
  eventsFor: EventsFor,
  options: Options,
): Readonly<{ folded: RunFolded; plan: AppendPlan }> | null => {
  const { caught } = known;
  try {
    checkExpectedSeq(runId, caught.lastSeq, options.expectedSeq);
    const plan = planAppend(caught.state, { seq: caught.lastSeq, hash: caught.lastHash }, eventsFor, options);
    return plan.kind === 'write' ? { folded: known, plan } : null;
  } catch {
    return null;
  }
};

/**
 * The PostgreSQL store's `createRun`: the run's row and first lines in one transaction, with the
 * state they fold to as its checkpoint when known (an opened run's; an imported run gets one at its
 * first append); `run-exists` if the id is taken.
 */
export const createRunPostgres = async (client: pg.ClientBase, where: string, run: NewRun): Promise<void> => {
  const { runId, head, state } = run;
  const text = run.text.toString();
  const checkpoint: PgCheckpoint | undefined =
    state === undefined
      ? undefined
      : { ...head, size: Buffer.byteLength(text), events: head.seq, refused: 0, state };
  try {
    await transaction(client, async () => {
      await (checkpoint === undefined
        ? client.query('INSERT INTO clearance.runs (run_id, last_seq, head_hash) VALUES ($1, $2, $3)', [
            runId,
            head.seq,
            head.hash,
          ])
        : client.query(
            `INSERT INTO clearance.runs (run_id, last_seq, head_hash, ${CHECKPOINT_COLUMNS})
             VALUES ($1, $2, $3, ${checkpointParameters(4)})`,
            [runId, head.seq, head.hash, ...checkpointValues(checkpoint)],
          ));
      await insertLines(client, runId, 1, text);
    });
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ClearanceError(
        'run-exists',
        `run ${runId} already exists in the ${where}: pick another run id`,
        {
          runId,
        },
      );
    }
    throw e;
  }
};
