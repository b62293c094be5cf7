import { hash } from 'node:crypto';

/**
 * The only hash in the domain. Kept in one file so a browser build of the fold can alias this
 * module to a pure-JS SHA-256 without touching anything else. `crypto.hash` (one-shot) is about
 * three times faster than `createHash` for log-line-sized inputs.
 */
export const sha256Hex = (input: string | Uint8Array): string => hash('sha256', input, 'hex');

export const ZERO_HASH = '0'.repeat(64);
