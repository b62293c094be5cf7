import pg from 'pg';
import { ClearanceError } from '../../errors.js';

/** A store URL names PostgreSQL; anything else (a path, `file:`) names the directory store. */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/**
 * Clients whose connection broke after it was made: pg says so with an `error` event, emitted
 * before it fails the queries in flight, and from then on fails every query with an error of its
 * own that has neither errno nor SQLSTATE ("Connection terminated unexpectedly", "Client has
 * encountered a connection error and is not queryable"). Remembered here, so that such an error is
 * known for the lost connection it is, without reading its message.
 */
const broken = new WeakSet<pg.Client>();

/** Whether the client's connection broke after it was made (pg's `error` event said so). */
export const isBroken = (client: pg.Client): boolean => broken.has(client);

export type ConnectOptions = Readonly<{
  /** give up on a connection not made within this many ms (a reconnecting wait's deadline); none by default */
  timeoutMs?: number;
}>;

/**
 * Connect with a connection string exactly as libpq would read it. `pg` parses it (so a Unix
 * socket given as `postgres://user@/db?host=/socket/dir`, which the WHATWG URL parser rejects,
 * works). The string itself is never printed: it may hold a password.
 */
export const connect = async (connectionString: string, options: ConnectOptions = {}): Promise<pg.Client> => {
  const client = new pg.Client({
    connectionString,
    application_name: 'clearance',
    ...(options.timeoutMs === undefined ? {} : { connectionTimeoutMillis: options.timeoutMs }),
  });
  // a server that goes away mid-command surfaces on the next query: never crash on the event, remember it
  client.on('error', () => broken.add(client));
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw unavailable(client, e);
  }
  return client;
};

const SQLSTATE = /^[0-9A-Z]{5}$/;
const ERRNO = /^E[A-Z]+$/;

/**
 * Whether `e`, raised by a query on `client`, means the connection is gone rather than that the
 * statement failed: a socket error (errno), the server's own word (SQLSTATE class 08, connection
 * exception; 57P01-57P03, the backend terminated, the server crashed or cannot take connections
 * now), or pg's error for a client whose connection broke.
 */
export const connectionLost = (client: pg.Client, e: unknown): boolean => {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && ERRNO.test(code)) return true;
  if (typeof code === 'string' && SQLSTATE.test(code)) return /^(08|57P0[123])/.test(code);
  return broken.has(client);
};

/** Where a client points, for messages: database, host and port, never the user or password. */
export const describe = (client: pg.Client): string =>
  `postgres database ${client.database ?? '?'} on ${client.host ?? 'localhost'}${client.host?.startsWith('/') ? '' : `:${client.port}`}`;

export const unavailable = (client: pg.Client, e: unknown): ClearanceError =>
  new ClearanceError(
    'store-unavailable',
    `could not reach the ${describe(client)}: ${(e as Error).message}. Check that the server runs and that --store / CLEARANCE_STORE is right`,
    { store: describe(client), cause: (e as { code?: string }).code ?? null },
  );

/**
 * A failure the database reported, named as the file store names its own: what a user or the
 * machine can cause (a read-only replica, a role without a privilege, a full disk, a server going
 * away, a backend terminated) is an operational error with the fix, never an internal one. Anything
 * already a ClearanceError passes through; so does an error with no code on a connection that is
 * still whole, which no server or network can cause: a bug of ours.
 */
export const postgresFailure = (client: pg.Client, e: unknown): unknown => {
  if (e instanceof ClearanceError) return e;
  const where = describe(client);
  const code = (e as { code?: unknown } | null)?.code;
  const cause = typeof code === 'string' ? code : null;
  if (connectionLost(client, e))
    return new ClearanceError(
      'store-unavailable',
      `lost the connection to the ${where} (${(e as Error).message}): a write it cut short was committed whole or not at all (status shows which); check that the server runs and run the command again`,
      { store: where, cause },
    );
  if (cause === null || !SQLSTATE.test(cause)) return e;
  const sqlState = cause;
  const message = (e as Error).message;
  const details = { store: where, sqlState };
  if (sqlState === '25006')
    return new ClearanceError(
      'read-only',
      `the ${where} is read-only here (${message}): append through a writable primary`,
      details,
    );
  if (sqlState === '42501')
    return new ClearanceError(
      'permission-denied',
      `the ${where} refused this role (${message}): grant it the privileges docs/stores.md lists`,
      details,
    );
  if (sqlState === '53100')
    return new ClearanceError('no-space', `the ${where} has no space left (${message})`, details);
  if (/^(08|28|3D|57|53)/.test(sqlState))
    return new ClearanceError(
      'store-unavailable',
      `the ${where} cannot serve this command: ${message}`,
      details,
    );
  return new ClearanceError('io-error', `the ${where} failed: ${message} (SQLSTATE ${sqlState})`, details);
};
