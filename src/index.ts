/** clearance: the public library API. The fold (`events`, `projections`) does no I/O. */
export * from './events/index.js';
export * from './projections/index.js';
