/** The fewest runs a property gets in CI (`CI` set, as `.ci/run` and hosted runners do). */
const CI_FLOOR = 1000;

const requested = (): number | undefined => {
  const raw = process.env.CLEARANCE_PROPERTY_RUNS;
  if (raw === undefined || raw.trim() === '') return undefined;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new Error(`CLEARANCE_PROPERTY_RUNS must be a positive integer, got ${JSON.stringify(raw)}`);
  }
  return n;
};

const inCi = (): boolean => {
  const ci = process.env.CI;
  return ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
};

/**
 * How many runs each property gets: 1,000 by default; CLEARANCE_PROPERTY_RUNS=N asks for N. Locally
 * N may be lower, for a quick loop while editing; under CI it is never below 1,000.
 */
export const numRuns = inCi() ? Math.max(CI_FLOOR, requested() ?? CI_FLOOR) : (requested() ?? CI_FLOOR);

export const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};
