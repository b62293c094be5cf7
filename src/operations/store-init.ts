import type { ResultOf, StoreInitOutput } from './schemas/results.js';
import type { StoreLocation } from './store-location.js';

export type InitStoreResult = ResultOf<typeof StoreInitOutput>;

/**
 * Create (or upgrade) the clearance schema in the PostgreSQL database the location names: the one
 * operation that changes a schema. A directory store needs none (the first `open` creates it).
 */
export const initStore = async (location: StoreLocation): Promise<InitStoreResult> => {
  if (location.kind === 'file') return { store: location.dir, kind: 'file', from: null, to: null };
  const { initPostgresStore } = await import('../store/postgres/index.js');
  const { where, from, to } = await initPostgresStore(location.url);
  return { store: where, kind: 'postgres', from, to };
};
