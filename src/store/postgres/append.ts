import * as E from 'fp-ts/lib/Either.js';
import type pg from 'pg';
import { ClearanceError, refusal } from '../../errors.js';
import type { DomainEvent, RevisionCapturedData, RunOpenedData, StoredEvent } from '../../events/event.js';
import { ZERO_HASH } from '../../events/sha256.js';
import { evolveAll } from '../../projections/evolve-all.js';
import { initialState } from '../../projections/state.js';
import type { AppendResult } from '../append.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../lock.js';
import { type Encoded, encodeEvents } from '../log-format.js';
import { checkExpectedSeq, type EventsFor, planAppend } from '../prepare-append.js';
import { integrityError } from '../read.js';
import {
  CHECKPOINT_COLUMNS,
  catchUpPostgres,
  checkpointOfCaughtUp,
  checkpointParameters,
  checkpointValues,
  type PgCheckpoint,
  readRunRowForFold,
} from './checkpoint.js';
import { insertLines, missingRun } from './log.js';

type Options = Readonly<{ by: string; expectedSeq?: number; now?: () => Date; timeoutMs?: number }>;

const LOCK_NOT_AVAILABLE = '55P03';
const UNIQUE_VIOLATION = '23505';
/** PostgreSQL's largest `lock_timeout`, in ms (an int) */
const MAX_LOCK_TIMEOUT_MS = 2_147_483_647;

/** Run `fn` in one transaction begun by `begin`; roll back on any failure. */
const transaction = async <T>(client: pg.ClientBase, fn: () => Promise<T>, begin = 'BEGIN'): Promise<T> => {
  await client.query(begin);
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
};

/**
 * `BEGIN` and the transaction's lock timeout in one round trip (a simple query may hold two
 * statements, but no parameters): the value written in is an integer this function made, never
 * caller text. A timeout past PostgreSQL's largest, or infinite, waits as long as it allows.
 */
const beginWithLockTimeout = (timeoutMs: number): string => {
  const ms = Number.isNaN(timeoutMs)
    ? DEFAULT_LOCK_TIMEOUT_MS
    : Math.min(MAX_LOCK_TIMEOUT_MS, Math.max(1, Math.ceil(timeoutMs)));
  return `BEGIN; SET LOCAL lock_timeout = ${ms}`;
};

/**
 * The new lines and the run's row in one statement: the lines inserted, the head moved to the
 * last of them, and the checkpoint rewritten at it with the state `evolve` made.
 */
const writeLines = (
  client: pg.ClientBase,
  runId: string,
  after: Readonly<{ seq: number }>,
  encoded: Encoded,
  checkpoint: PgCheckpoint,
) =>
  client.query(
    `WITH inserted AS (
       INSERT INTO clearance.events (run_id, seq, line)
       SELECT $1, $2::bigint + ordinality - 1, line FROM unnest($3::text[]) WITH ORDINALITY AS t(line, ordinality))
     UPDATE clearance.runs SET last_seq = $4, head_hash = $5, (${CHECKPOINT_COLUMNS}) = (${checkpointParameters(6)})
      WHERE run_id = $1`,
    [
      runId,
      after.seq + 1,
      encoded.text.split('\n').slice(0, -1),
      encoded.lastSeq,
      encoded.lastHash,
      ...checkpointValues(checkpoint),
    ],
  );

/** Replace a run's checkpoint (an append that wrote nothing, but folded further than the one it found). */
const writeCheckpoint = (client: pg.ClientBase, runId: string, checkpoint: PgCheckpoint) =>
  client.query(
    `UPDATE clearance.runs SET (${CHECKPOINT_COLUMNS}) = (${checkpointParameters(2)}) WHERE run_id = $1`,
    [runId, ...checkpointValues(checkpoint)],
  );

/**
 * Append to a run in PostgreSQL: one transaction under a row lock on the run (waiting at most
 * `timeoutMs`, then `lock-timeout`), the same integrity refusal, expected-seq check and `evolve`
 * checks as the file store, the new lines inserted and the run's head and checkpoint moved
 * together. The run is folded from its checkpoint when that matches its lines (`catchUpPostgres`):
 * the row, the line at the checkpoint and any after it, whatever the run's length. Resolves only
 * after COMMIT.
 */
export const appendPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
  eventsFor: EventsFor,
  options: Options,
): Promise<AppendResult> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  try {
    return await transaction(
      client,
      async () => {
        const row = await readRunRowForFold(client, runId, true);
        if (row === null) throw missingRun(runId, where);
        const caught = await catchUpPostgres(client, runId, row);
        const damaged = integrityError({ issue: caught.issue, path: `${where} run ${runId}`, runId });
        if (damaged !== null) throw damaged;
        checkExpectedSeq(runId, caught.lastSeq, options.expectedSeq);
        const plan = planAppend(
          caught.state,
          { seq: caught.lastSeq, hash: caught.lastHash },
          eventsFor,
          options,
        );
        if (plan.kind !== 'write') {
          const checkpoint = checkpointOfCaughtUp(caught);
          // a checkpoint missing, untrusted or behind: keep the one this fold reached, as an append would
          if (checkpoint !== null && caught.checkpointSeq !== caught.lastSeq)
            await writeCheckpoint(client, runId, checkpoint);
          return {
            appended: [],
            folded: { state: caught.state, trail: [] },
            repairedTail: null,
            alreadyRecorded: plan.kind === 'already-recorded',
          };
        }
        const { encoded } = plan;
        await writeLines(client, runId, { seq: caught.lastSeq }, encoded, {
          seq: encoded.lastSeq,
          hash: encoded.lastHash,
          size: caught.size + Buffer.byteLength(encoded.text),
          events: caught.events + encoded.stored.length,
          refused: caught.refused,
          state: plan.folded.state,
        });
        return {
          appended: encoded.stored,
          folded: plan.folded,
          repairedTail: null,
          alreadyRecorded: false,
        };
      },
      beginWithLockTimeout(timeoutMs),
    );
  } catch (e) {
    if ((e as { code?: string }).code === LOCK_NOT_AVAILABLE) {
      throw new ClearanceError(
        'lock-timeout',
        `could not lock run ${runId} in the ${where} within ${timeoutMs} ms: another clearance process is appending to it`,
        { runId, timeoutMs },
      );
    }
    throw e;
  }
};

/** Create a run: its row and first lines in one transaction; `run-exists` if the id is taken. */
export const openPostgres = async (
  client: pg.ClientBase,
  where: string,
  opened: RunOpenedData,
  options: Readonly<{ by: string; capture?: RevisionCapturedData; now?: () => Date }>,
): Promise<ReadonlyArray<StoredEvent>> => {
  const events: DomainEvent[] = [{ type: 'run.opened', data: opened }];
  if (options.capture !== undefined) events.push({ type: 'revision.captured', data: options.capture });
  const checked = evolveAll(initialState, events);
  if (E.isLeft(checked)) throw refusal(checked.left);
  const at = (options.now?.() ?? new Date()).toISOString();
  const encoded = encodeEvents(events, { seq: 0, hash: ZERO_HASH }, { at, by: options.by });
  const checkpoint: PgCheckpoint = {
    seq: encoded.lastSeq,
    hash: encoded.lastHash,
    size: Buffer.byteLength(encoded.text),
    events: events.length,
    refused: 0,
    state: checked.right,
  };
  try {
    await transaction(client, async () => {
      await client.query(
        `INSERT INTO clearance.runs (run_id, last_seq, head_hash, ${CHECKPOINT_COLUMNS})
         VALUES ($1, $2, $3, ${checkpointParameters(4)})`,
        [opened.runId, encoded.lastSeq, encoded.lastHash, ...checkpointValues(checkpoint)],
      );
      await insertLines(client, opened.runId, 1, encoded.text);
    });
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ClearanceError(
        'run-exists',
        `run ${opened.runId} already exists in the ${where}: pick another run id`,
        {
          runId: opened.runId,
        },
      );
    }
    throw e;
  }
  return encoded.stored;
};

/** Load a checked log (see `checkImport`) as a new run: its row and lines in one transaction. */
export const importPostgres = async (
  client: pg.ClientBase,
  where: string,
  runId: string,
  bytes: Buffer,
  lastSeq: number,
  lastHash: string,
): Promise<void> => {
  try {
    await transaction(client, async () => {
      await client.query('INSERT INTO clearance.runs (run_id, last_seq, head_hash) VALUES ($1, $2, $3)', [
        runId,
        lastSeq,
        lastHash,
      ]);
      await insertLines(client, runId, 1, bytes.toString('utf8'));
    });
  } catch (e) {
    if ((e as { code?: string }).code === UNIQUE_VIOLATION) {
      throw new ClearanceError(
        'run-exists',
        `run ${runId} already exists in the ${where}: nothing was imported`,
        {
          runId,
        },
      );
    }
    throw e;
  }
};
