import { createDecider } from '@clearance/fold/internal/projections/decider.js';
import { nodeEd25519 } from '../signing/node-ed25519.js';

/** The decider both stores read and append with: Node's own crypto checks a signed ruling. */
export const nodeDecider = createDecider({ verifyEd25519: nodeEd25519 });
