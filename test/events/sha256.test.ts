import { createHash } from 'node:crypto';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { property } from '../../property-tests/property.js';
import { SHA256_SOURCE, sha256Hex, sha256HexPure } from '../../src/events/sha256.js';

/**
 * The fold hashes with node:crypto on Node and with @noble/hashes elsewhere (a browser): a log
 * must chain, and a report must hash, to the same bytes on both.
 */
const reference = (input: string | Uint8Array) => createHash('sha256').update(input).digest('hex');

describe('SHA-256, pure and native', () => {
  it('Node takes the native hash, handed over by process.getBuiltinModule', () => {
    expect(SHA256_SOURCE).toBe('node:crypto');
  });

  it('the FIPS 180-2 vectors, on both', () => {
    for (const hash of [sha256Hex, sha256HexPure]) {
      expect(hash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(hash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      expect(hash('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
        '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      );
    }
  });

  property([fc.string({ unit: 'binary', maxLength: 600 })], { numRuns: 1000 })(
    'a string (any code point, UTF-8 encoded) hashes alike',
    (text) => {
      expect(sha256HexPure(text)).toBe(reference(text));
      expect(sha256Hex(text)).toBe(reference(text));
    },
  );

  property([fc.uint8Array({ maxLength: 300 })], { numRuns: 1000 })('bytes hash alike', (bytes) => {
    expect(sha256HexPure(bytes)).toBe(reference(bytes));
    expect(sha256Hex(bytes)).toBe(reference(bytes));
  });
});
