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
