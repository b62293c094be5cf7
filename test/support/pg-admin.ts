import type pg from 'pg';

/**
 * One connection a test file makes its databases through, not one a database: each connection is
 * a server process started (about 23 ms of the server's CPU here). Closed after every file
 * (test/support/cleanup.ts); a connection that failed is dropped, and the next call makes another.
 */
let admin: { url: string; client: Promise<pg.Client> } | undefined;

export const adminOf = (url: string): Promise<pg.Client> => {
  if (admin?.url !== url) {
    const connected = import('pg').then(async ({ default: { Client } }) => {
      const client = new Client({ connectionString: url });
      client.on('error', () => drop());
      await client.connect();
      return client;
    });
    const mine = { url, client: connected };
    const drop = () => {
      if (admin === mine) admin = undefined;
    };
    connected.catch(drop);
    admin = mine;
  }
  return admin.client;
};

/** Close the connection `freshDatabase` keeps, if it made one. */
export const closeAdmin = async (): Promise<void> => {
  const was = admin;
  admin = undefined;
  if (was !== undefined) await (await was.client.catch(() => undefined))?.end();
};
