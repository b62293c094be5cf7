// The commands that only read runs, loaded as one module: they share their dependencies (the log
// reader, the fold, io-ts), and one module starts faster than the dozen shared pieces a split into
// single commands produces. None of them loads zod or the lock.
export { registerCost } from './cost.js';
export { registerExplain } from './explain.js';
export { registerFeedback } from './feedback.js';
export { registerFindings } from './findings.js';
export { registerGate } from './gate.js';
export { registerMay } from './may.js';
export { registerNext } from './next.js';
export { registerReplay } from './replay.js';
export { registerReport } from './report.js';
export { registerReproductions } from './reproductions.js';
export { registerSarif } from './sarif.js';
export { registerStatus } from './status.js';
