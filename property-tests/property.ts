import * as fc from 'fast-check';
import { it } from 'vitest';

type Arbitraries<Ts extends [unknown, ...unknown[]]> = { [K in keyof Ts]: fc.Arbitrary<Ts[K]> };
type Predicate<Ts extends [unknown, ...unknown[]]> = (...args: Ts) => boolean | undefined;

/**
 * A fast-check property as one vitest test: `property([arbitraries], { numRuns })(name, predicate)`,
 * which `fc.assert` runs, failing with the seed, the path and the shrunk counterexample.
 *
 * This is the shape of @fast-check/vitest's `test.prop`, written over fast-check alone: importing
 * @fast-check/vitest took 2.5 s of CPU in every test worker (it builds a `.prop` for every chain of
 * vitest's test modifiers when it loads), as much as a whole property file's runs.
 */
/**
 * A failure's seed and path, given back (CLEARANCE_PROPERTY_SEED, CLEARANCE_PROPERTY_PATH, as the
 * failure printed them), replay that counterexample first: how a CI-only failure is reproduced.
 */
const replayed = (): Pick<fc.Parameters<unknown>, 'seed' | 'path'> => {
  const seed = process.env.CLEARANCE_PROPERTY_SEED;
  if (seed === undefined || seed === '') return {};
  if (!/^-?[0-9]+$/.test(seed))
    throw new Error(`CLEARANCE_PROPERTY_SEED must be an integer, got ${JSON.stringify(seed)}`);
  const path = process.env.CLEARANCE_PROPERTY_PATH;
  return { seed: Number(seed), ...(path === undefined || path === '' ? {} : { path }) };
};

export const property =
  <Ts extends [unknown, ...unknown[]]>(arbitraries: Arbitraries<Ts>, params: fc.Parameters<Ts> = {}) =>
  (name: string, predicate: Predicate<Ts>, timeout?: number): void => {
    const args = [...arbitraries, predicate] as unknown as [...Arbitraries<Ts>, Predicate<Ts>];
    it(name, () => fc.assert(fc.property<Ts>(...args), { ...params, ...replayed() }), timeout);
  };
