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
export const property =
  <Ts extends [unknown, ...unknown[]]>(arbitraries: Arbitraries<Ts>, params: fc.Parameters<Ts> = {}) =>
  (name: string, predicate: Predicate<Ts>, timeout?: number): void => {
    const args = [...arbitraries, predicate] as unknown as [...Arbitraries<Ts>, Predicate<Ts>];
    it(name, () => fc.assert(fc.property<Ts>(...args), params), timeout);
  };
