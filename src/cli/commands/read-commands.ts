// The commands that only read runs, loaded as one module: they share their dependencies (the log
// reader, the fold, io-ts), and one module starts faster than the dozen shared pieces a split into
// single commands produces. None of them loads zod or the lock. `gate` comes alone (index.ts): it
// reads the working tree through git, whose module would load child_process for all of them.
export { registerCost } from './cost.js';
export { registerExplain } from './explain.js';
export { registerFeedback } from './feedback.js';
export { registerFindings } from './findings.js';
export { registerMay } from './may.js';
export { registerNext } from './next.js';
export { registerReplay } from './replay.js';
export { registerReport } from './report.js';
export { registerReproductions } from './reproductions.js';
export { registerSarif } from './sarif.js';
export { registerStatus } from './status.js';
