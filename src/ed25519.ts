/**
 * `clearance/ed25519`: an Ed25519 verifier for a host without Node's crypto (a browser), to hand to
 * the decider so it can check signed rulings: `createDecider({ verifyEd25519 })`.
 */
export { nobleEd25519 as verifyEd25519 } from './events/noble-ed25519.js';
