/**
 * `clearance/fold`: the pure part — events, the one transition function, the fold and its views.
 * It does no I/O and imports nothing from the store, the CLI or node:fs, so other tools can embed it.
 */
export * from './events/index.js';
export * from './projections/index.js';
