import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The only hash in the domain, and the fold's only link to its platform. The fold must bundle for a
 * browser with no Node built-in and stay synchronous, so SHA-256 comes from @noble/hashes (pure,
 * audited, synchronous; WebCrypto's digest is async). On Node, where the fold also reads whole
 * logs, `crypto.hash` is 6–13× faster per line, so it is taken when the host hands it over through
 * `process.getBuiltinModule` (Node ≥ 20.16): a property lookup, not an import, so no bundler sees a
 * Node built-in. Both give the same digest (test/events/sha256.test.ts); no shim or alias is needed.
 */
export const sha256HexPure = (input: string | Uint8Array): string =>
  bytesToHex(sha256(typeof input === 'string' ? utf8ToBytes(input) : input));

type NodeHash = (algorithm: 'sha256', data: string | Uint8Array, encoding: 'hex') => string;
type Host = { process?: { getBuiltinModule?: (id: string) => { hash?: NodeHash } | undefined } };

const nodeHash = (globalThis as Host).process?.getBuiltinModule?.('node:crypto')?.hash;

export const sha256Hex: (input: string | Uint8Array) => string =
  nodeHash === undefined ? sha256HexPure : (input) => nodeHash('sha256', input, 'hex');

/** which implementation `sha256Hex` is on this host */
export const SHA256_SOURCE: 'node:crypto' | '@noble/hashes' =
  nodeHash === undefined ? '@noble/hashes' : 'node:crypto';

export const ZERO_HASH = '0'.repeat(64);
