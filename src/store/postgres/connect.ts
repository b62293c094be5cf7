import pg from 'pg';
import { ClearanceError } from '../../errors.js';

/** A store URL names PostgreSQL; anything else (a path, `file:`) names the directory store. */
export const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/**
 * Connect with a connection string exactly as libpq would read it. `pg` parses it (so a Unix
 * socket given as `postgres://user@/db?host=/socket/dir`, which the WHATWG URL parser rejects,
 * works). The string itself is never printed: it may hold a password.
 */
export const connect = async (connectionString: string): Promise<pg.Client> => {
  const client = new pg.Client({ connectionString, application_name: 'clearance' });
  // a server that goes away mid-command surfaces on the next query; do not crash on the event
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw unavailable(client, e);
  }
  return client;
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
 * away) is an operational error with the fix, never an internal one. Anything already a
 * ClearanceError passes through.
 */
export const postgresFailure = (where: string, e: unknown): unknown => {
  if (e instanceof ClearanceError) return e;
  const sqlState = (e as { code?: unknown }).code;
  if (typeof sqlState !== 'string' || !/^[0-9A-Z]{5}$/.test(sqlState)) {
    const errno = (e as NodeJS.ErrnoException).code;
    return typeof errno === 'string' && /^E[A-Z]+$/.test(errno)
      ? new ClearanceError(
          'store-unavailable',
          `lost the connection to the ${where}: ${(e as Error).message}`,
          {
            store: where,
            cause: errno,
          },
        )
      : e;
  }
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
      `the ${where} refused this role (${message}): grant it the privileges README lists`,
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
