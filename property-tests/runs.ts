/** The fewest runs a property gets in CI (`CI` set, as `.ci/run` and hosted runners do). */
const CI_FLOOR = 1000;

/**
 * Runs per property in a local `npm test` when nothing asks for more: each run draws new seeds, so
 * local runs add up over a day's work (twenty runs of the suite are 1,000 runs of each property), and
 * CI runs the full 1,000. The suite is CPU-bound on the 2-core build machine: 50 rather than 100 took
 * 2.6 to 2.8 s of CPU off the property tests there (100 rather than 200 had taken 3 to 3.5 s).
 */
const LOCAL_DEFAULT = 50;

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
 * How many runs each property gets: CLEARANCE_PROPERTY_RUNS=N asks for N, otherwise 50 locally and
 * 1,000 under CI. Under CI it is never below 1,000, whatever N says.
 */
export const numRuns = inCi() ? Math.max(CI_FLOOR, requested() ?? CI_FLOOR) : (requested() ?? LOCAL_DEFAULT);

/**
 * Whether generated cases run at full scale (CI, or CLEARANCE_PROPERTY_RUNS >= 1,000): tests that
 * generate work other than fast-check runs (a random git history, appenders by the dozen) scale with
 * it, so a local `npm test` asserts the same things over fewer cases and CI over all of them.
 */
export const fullScale = numRuns >= CI_FLOOR;

/** `full` at full scale, else `local`: a generated test's size, by the same switch as the runs. */
export const scaled = (full: number, local: number): number => (fullScale ? full : local);

export const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};
