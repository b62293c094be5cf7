import { setTimeout as pause } from 'node:timers/promises';
import type pg from 'pg';
import { ClearanceError, isClearanceError } from '../errors.js';
import type { Deadline } from '../input/deadline.js';
import type { BoundedRead } from '../input/read-bounded.js';
import { connectionLost, postgresFailure } from '../store/postgres/connect.js';
import type { Notifier } from './wake.js';

/** The channel a published report is announced on; its payload is the run id. */
export const REPORTS_CHANNEL = 'clearance_reports';

/** How a wait gets a new connection when it has lost one: made within `timeoutMs`, schema checked. */
export type Reconnect = (timeoutMs: number) => Promise<pg.Client>;

/**
 * The pause after a refused reconnect, doubled after each refusal up to the last: a server that
 * restarts takes a second or two, and a wait of minutes must not hammer it meanwhile. Each pause is
 * cut to what is left of the deadline.
 */
const RECONNECT_PAUSE_MS = 50;
const RECONNECT_PAUSE_MAX_MS = 1_000;

/**
 * A refusal that trying again cannot cure: the role may not log in (SQLSTATE class 28), the
 * database does not exist (3D000), the role may not connect to it (42501), or anything that is not
 * the store being out of reach (a schema this code does not know). A server shutting down, starting
 * up, refusing connections for now or not answering at all is tried again until the deadline.
 */
const lastsBeyondReconnect = (e: unknown): boolean => {
  if (!isClearanceError(e) || e.code !== 'store-unavailable') return true;
  const cause = e.details.cause;
  return typeof cause === 'string' && /^(28|3D000$|42501$)/.test(cause);
};

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export type ReportLink = Readonly<{
  /** a look through a listening connection, made again first if it was lost */
  look: (deadline: Deadline, read: (client: pg.Client) => Promise<BoundedRead>) => Promise<BoundedRead>;
  notifier: Notifier;
  close: () => Promise<void>;
}>;

/**
 * The wait's connection to the store, and the next one each time it is lost (a backend
 * terminated, a server restarting). Every connection LISTENs before the wait looks through it, so
 * a report published while there was none is found by the look that follows, never by a NOTIFY
 * that had no one to hear it, and one published after is heard. A loss wakes a sleeping wait at
 * once: it reconnects now, not at its next poll. Connections made here are closed here; `first`
 * stays its caller's.
 */
export const reportLink = (
  first: pg.Client,
  where: string,
  runId: string,
  reconnect: Reconnect | undefined,
  signal: AbortSignal | undefined,
): ReportLink => {
  let current: pg.Client | null = first;
  let listening = false;
  /** why the last connection was lost */
  let loss: unknown = null;
  let nudge: (() => void) | null = null;
  const detachers: Array<() => void> = [];
  const made: pg.Client[] = [];

  const lose = (client: pg.Client, e: unknown): void => {
    if (current !== client) return; // pg reports one loss twice: the server's word, then the closed socket
    current = null;
    listening = false;
    loss = e;
    nudge?.();
  };
  const attach = (client: pg.Client): void => {
    const onNotification = (message: pg.Notification) => {
      if (message.channel === REPORTS_CHANNEL && (message.payload ?? runId) === runId) nudge?.();
    };
    const onError = (e: Error) => lose(client, e);
    client.on('notification', onNotification);
    client.on('error', onError);
    detachers.push(() => {
      client.off('notification', onNotification);
      client.off('error', onError);
    });
  };
  attach(first);
  // an error event may come before the query it breaks fails, or with no query at all
  const lostBy = (client: pg.Client, e: unknown): boolean => current !== client || connectionLost(client, e);

  const gone = (deadline: Deadline, refusal: unknown): ClearanceError =>
    new ClearanceError(
      'store-unavailable',
      `lost the connection to the ${where} while waiting for the report (${messageOf(loss)}) and could not reconnect${
        deadline.expired() ? ` within the wait's ${deadline.timeoutMs} ms` : ''
      }${refusal === null ? '' : `: ${messageOf(refusal)}`}`,
      {
        store: where,
        cause: (loss as { code?: unknown } | null)?.code ?? null,
        waitedMs: Math.round(deadline.waited()),
        timeoutMs: deadline.timeoutMs,
      },
    );

  /** A connection that listens, or null once aborted; `gone` when none can be had in time. */
  const listeningOne = async (deadline: Deadline): Promise<pg.Client | null> => {
    let wait = RECONNECT_PAUSE_MS;
    let refusal: unknown = null;
    for (;;) {
      if (signal?.aborted) return null;
      if (current === null) {
        if (reconnect === undefined || deadline.expired()) throw gone(deadline, refusal);
        try {
          const client = await reconnect(Math.max(1, Math.ceil(deadline.remaining())));
          made.push(client);
          attach(client);
          current = client;
        } catch (e) {
          if (!lastsBeyondReconnect(e)) {
            // an attempt the deadline cut short says only that time ran out: the refusal before it
            // says why the server would not take the connection
            refusal = refusal !== null && deadline.expired() ? refusal : e;
            await pause(Math.min(wait, deadline.remaining()), undefined, signal ? { signal } : {}).catch(
              () => undefined, // aborted: the loop says so
            );
            wait = Math.min(2 * wait, RECONNECT_PAUSE_MAX_MS);
            continue;
          }
          throw isClearanceError(e) && e.code === 'store-unavailable' ? gone(deadline, e) : e;
        }
      }
      const client = current;
      if (listening) return client;
      try {
        await client.query(`LISTEN ${REPORTS_CHANNEL}`);
        if (current === client) listening = true;
      } catch (e) {
        if (!lostBy(client, e)) throw postgresFailure(client, e);
        lose(client, e);
      }
    }
  };

  return {
    look: async (deadline, read) => {
      for (;;) {
        const client = await listeningOne(deadline);
        if (client === null) return { kind: 'missing' }; // aborted: the wait says so
        if (deadline.expired()) return { kind: 'expired' };
        try {
          return await read(client);
        } catch (e) {
          if (!lostBy(client, e)) throw postgresFailure(client, e);
          lose(client, e);
        }
      }
    },
    notifier: (wake) => {
      nudge = wake;
      return () => {
        nudge = null;
      };
    },
    close: async () => {
      for (const detach of detachers.splice(0)) detach();
      if (current === first && listening)
        await first.query(`UNLISTEN ${REPORTS_CHANNEL}`).catch(() => undefined);
      await Promise.all(made.map((client) => client.end().catch(() => undefined)));
    },
  };
};
