/**
 * clearance: the public library API. The pure part is the package `@clearance/fold` (the decider,
 * the fold and its views, no I/O), re-exported here with its door schemas; this adds every command
 * as an operation (`operations.record(ctx, input)`), the store they run over, and the error type.
 */

export * from '@clearance/fold';
export * from '@clearance/fold/schemas';
export {
  ClearanceError,
  type ErrorCode,
  isClearanceError,
  OPERATIONAL_CODES,
  type OperationalCode,
} from './errors.js';
export * from './handoff/index.js';
/** Every command as a typed operation: `operations.status(ctx, { runId })` (src/operations). */
export * as operations from './operations/index.js';
export * from './revision/index.js';
export * from './store/index.js';
