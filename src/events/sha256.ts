import { createHash } from 'node:crypto';

/**
 * The only hash in the domain. Kept in one file so a browser build of the fold can alias this
 * module to a pure-JS SHA-256 without touching anything else.
 */
export const sha256Hex = (input: string | Uint8Array): string =>
  createHash('sha256').update(input).digest('hex');

export const ZERO_HASH = '0'.repeat(64);
