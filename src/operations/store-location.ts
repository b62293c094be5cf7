import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClearanceError } from '../errors.js';
import type { Store } from '../store/store.js';

/** Where a store is: a directory (the JSONL file store) or a PostgreSQL connection string. */
export type StoreLocation = Readonly<{ kind: 'file'; dir: string } | { kind: 'postgres'; url: string }>;

const isPostgresUrl = (location: string): boolean => /^postgres(ql)?:\/\//i.test(location);

/**
 * `--store` / `CLEARANCE_STORE`: a `postgres://` (or `postgresql://`) connection string selects the
 * PostgreSQL store, a `file:` URL or a path the directory store. The connection string is handed
 * to the client as it is (libpq forms included) and never printed.
 */
export const parseStoreLocation = (location: string): StoreLocation => {
  if (isPostgresUrl(location)) return { kind: 'postgres', url: location };
  if (/^file:/i.test(location)) {
    try {
      return { kind: 'file', dir: fileURLToPath(location) };
    } catch (e) {
      throw new ClearanceError(
        'usage',
        `--store ${location}: not a usable file: URL (${(e as Error).message})`,
      );
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) {
    throw new ClearanceError(
      'usage',
      `--store ${location.replace(/\/\/[^@/]*@/, '//…@')}: unknown kind of store; use a directory, a file: URL or postgres://…`,
    );
  }
  return { kind: 'file', dir: path.resolve(location) };
};

/**
 * Open the store a command uses. The PostgreSQL client is loaded only here, so commands on the
 * file store never pay for it at start.
 */
export const openStoreAt = async (location: StoreLocation): Promise<Store> => {
  // loaded here, not at start: `--version`, `--help` and `schema` never pay for the store
  if (location.kind === 'file') return (await import('../store/store.js')).fileStore(location.dir);
  const { openPostgresStore } = await import('../store/postgres/index.js');
  return openPostgresStore(location.url);
};
