import type pg from 'pg';

/**
 * The server side of the connections a command holds, seen from an admin connection: which
 * backend is a wait's, and how to take it away as a server restart or an administrator would.
 */

/** The database a connection string names (its path, whatever form the host takes). */
export const databaseOf = (url: string): string => {
  const beforeQuery = url.split('?')[0] as string;
  return decodeURIComponent(beforeQuery.slice(beforeQuery.lastIndexOf('/') + 1));
};

const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A wait's backend in `database`, idle between two looks, other than those in `except`: its last
 * statement is the look at clearance.reports, which a wait runs only after its LISTEN, so a
 * backend found here hears a NOTIFY. Asked every 20 ms; 30 s is room, not a timing assertion.
 */
export const waitingBackend = async (
  admin: pg.Client,
  database: string,
  except: ReadonlyArray<number> = [],
): Promise<number> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await admin.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
       WHERE datname = $1 AND state = 'idle' AND query LIKE 'SELECT octet_length(body)%'
         AND NOT (pid = ANY ($2::int[]))`,
      [database, except],
    );
    const pid = found.rows[0]?.pid;
    if (pid !== undefined) return pid;
    if (Date.now() > deadline)
      throw new Error(
        `no wait was listening in ${database} (besides ${except.join(', ') || 'none'}) within 30 s`,
      );
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** A backend of `database` waiting for a lock another holds (an append at its run's row). */
export const blockedBackend = async (admin: pg.Client, database: string): Promise<number> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const found = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'",
      [database],
    );
    const pid = found.rows[0]?.pid;
    if (pid !== undefined) return pid;
    if (Date.now() > deadline) throw new Error(`no backend of ${database} waited for a lock within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** `pg_terminate_backend`, returning once the backend has gone (10 s is room). */
export const terminate = async (admin: pg.Client, pid: number): Promise<void> => {
  const done = await admin.query<{ gone: boolean }>('SELECT pg_terminate_backend($1, 10000) AS gone', [pid]);
  if (done.rows[0]?.gone !== true) throw new Error(`backend ${pid} did not terminate`);
};

/** Terminate every backend of `database` opened by clearance (a store's and a wait's), as a restart does. */
export const terminateClearanceBackends = async (admin: pg.Client, database: string): Promise<number> => {
  const killed = await admin.query(
    `SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity
     WHERE datname = $1 AND application_name = 'clearance'`,
    [database],
  );
  return killed.rowCount ?? 0;
};

/**
 * Refuse (or allow again) every new connection to `database`, superusers' too; connections
 * already open stay. A reconnecting wait is told "not currently accepting connections" (55000).
 */
export const allowConnections = async (
  admin: pg.Client,
  database: string,
  allowed: boolean,
): Promise<void> => {
  await admin.query(`ALTER DATABASE ${quoted(database)} ALLOW_CONNECTIONS ${allowed}`);
};
