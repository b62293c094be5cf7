import { createDecider } from '@clearance/fold/internal/projections/decider.js';
import { nodeEd25519 } from '../signing/node-ed25519.js';

/** The decider both stores append with, and `verify` reads with: Node's own crypto checks a signed ruling. */
export const nodeDecider = createDecider({ verifyEd25519: nodeEd25519 });

/**
 * The same rules for the lines a read has just checked against the hash chain (`status`, the
 * views, an append's catch-up): a carried report's `reportSha` is taken as the line records it
 * (docs/storage.md, "What each read checks").
 */
export const chainedLinesDecider = createDecider({ verifyEd25519: nodeEd25519, reportSha: 'as-chained' });
