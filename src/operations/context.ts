import { actorNameRejection } from '@clearance/fold/internal/events/actor-name.js';
import { refusal } from '../errors.js';
import type { Store } from '../store/store.js';

/**
 * What every operation is given by the front door that calls it (the CLI, the MCP server, the demo,
 * a library caller): the store, already opened; who acts; how long an append waits for a run's
 * lock; how a wait is cancelled; and the clock the log's `at` is read from. Nothing an operation's
 * input holds can name a store, an actor or a lock timeout: those are the door's, fixed when it
 * opened, never a reviewer's.
 */
export type OperationContext = Readonly<{
  store: Store;
  /** who acts: the envelope's `by`, one printable line (checked by the door that built the context) */
  by: string;
  /** how long an append waits for the run's lock (default: the store's, 10 s) */
  lockTimeoutMs?: number;
  /** a client's cancellation (Ctrl-C, an MCP cancel): a wait ends as `aborted` */
  signal?: AbortSignal;
  /** the clock the log's `at` is read from (default: the system's) */
  now?: () => Date;
}>;

/** What an operation that needs no store is given: how to cancel it. */
export type StorelessContext = Pick<OperationContext, 'signal'>;

/** An operation: typed input in, typed result out; a refusal is a thrown `ClearanceError`. */
export type Operation<I, R> = (ctx: OperationContext, input: I) => Promise<R>;

/**
 * A name as given in `field` (`--by`, `CLEARANCE_ACTOR`, `reviewer`): one printable line of at most
 * 256 characters, or `invalid-actor` naming the field. A name is signed into the log and printed
 * beside what it did, so every door checks it before anything is read or written.
 */
export const checkedName = (name: string, field: string): string => {
  const refused = actorNameRejection(name, field);
  if (refused !== undefined) throw refusal(refused);
  return name;
};

/**
 * Who appends, how long they wait for the lock, and the clock: what every write hands the store.
 * The actor is checked again here, whatever door built the context (a library caller's included).
 */
export const actorOf = (
  ctx: OperationContext,
): Readonly<{ by: string; timeoutMs?: number; now?: () => Date }> => ({
  by: checkedName(ctx.by, 'the actor (by)'),
  ...(ctx.lockTimeoutMs === undefined ? {} : { timeoutMs: ctx.lockTimeoutMs }),
  ...(ctx.now === undefined ? {} : { now: ctx.now }),
});
