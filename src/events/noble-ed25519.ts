import { ed25519 } from '@noble/curves/ed25519.js';
import type { Ed25519Verify } from './ed25519.js';

/**
 * Ed25519 by @noble/curves: pure JavaScript, synchronous, audited. For a host without Node's crypto
 * (a browser), handed to the decider as `createDecider({ verifyEd25519 })`.
 */
export const nobleEd25519: Ed25519Verify = (signature, message, publicKey) =>
  ed25519.verify(signature, message, publicKey);
