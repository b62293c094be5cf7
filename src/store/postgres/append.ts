import * as E from 'fp-ts/lib/Either.js';
import type pg from 'pg';
import { ClearanceError, refusal } from '../../errors.js';
import type { DomainEvent, RevisionCapturedData, RunOpenedData, StoredEvent } from '../../events/event.js';
import { ZERO_HASH } from '../../events/sha256.js';
import { evolveAll } from '../../projections/evolve-all.js';
import { fold } from '../../projections/fold.js';
import { initialState } from '../../projections/state.js';
import type { AppendResult } from '../append.js';
import { DEFAULT_LOCK_TIMEOUT_MS } from '../lock.js';
import { encodeEvents, parseLog } from '../log-format.js';
import { checkExpectedSeq, type EventsFor, planAppend } from '../prepare-append.js';
import { integrityError } from '../read.js';
import { insertLines, missingRun, readLogBytes, readRunRow } from './log.js';

type Options = Readonly<{ by: string; expectedSeq?: number; now?: () => Date; timeoutMs?: number }>;

const LOCK_NOT_AVAILABLE = '55P03';
const UNIQUE_VIOLATION = '23505';

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

/**
 * Append to a run in PostgreSQL: one transaction under a row lock on the run (waiting at most
 * `timeoutMs`, then `lock-timeout`), the same integrity refusal, expected-seq check and `evolve`
 * checks as the file store, the new lines inserted and the run's head moved together. Resolves
 * only after COMMIT.
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
    return await transaction(client, async () => {
      await client.query("SELECT set_config('lock_timeout', $1, true)", [
        `${Math.max(1, Math.ceil(timeoutMs))}ms`,
      ]);
      const row = await readRunRow(client, runId, true);
      if (row === null) throw missingRun(runId, where);
      const parsed = parseLog(await readLogBytes(client, runId), row.head);
      const damaged = integrityError({ issue: parsed.issue, path: `${where} run ${runId}`, runId });
      if (damaged !== null) throw damaged;
      const folded = fold(parsed.events);
      checkExpectedSeq(runId, parsed.lastSeq, options.expectedSeq);
      const plan = planAppend(
        folded.state,
        { seq: parsed.lastSeq, hash: parsed.lastHash },
        eventsFor,
        options,
      );
      if (plan.kind !== 'write') {
        return {
          appended: [],
          folded: { state: folded.state, trail: [] },
          repairedTail: null,
          alreadyRecorded: plan.kind === 'already-recorded',
        };
      }
      const { encoded } = plan;
      await insertLines(client, runId, parsed.lastSeq + 1, encoded.text);
      await client.query('UPDATE clearance.runs SET last_seq = $2, head_hash = $3 WHERE run_id = $1', [
        runId,
        encoded.lastSeq,
        encoded.lastHash,
      ]);
      return {
        appended: encoded.stored,
        folded: plan.folded,
        repairedTail: null,
        alreadyRecorded: false,
      };
    });
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
  try {
    await transaction(client, async () => {
      await client.query('INSERT INTO clearance.runs (run_id, last_seq, head_hash) VALUES ($1, $2, $3)', [
        opened.runId,
        encoded.lastSeq,
        encoded.lastHash,
      ]);
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
