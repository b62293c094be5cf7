/** How many runs each property gets: 1,000 in `npm test`, more with CLEARANCE_PROPERTY_RUNS=N. */
export const numRuns = Math.max(
  1000,
  Number.parseInt(process.env.CLEARANCE_PROPERTY_RUNS ?? '1000', 10) || 1000,
);

export const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
};
