import { createPublicKey, verify } from 'node:crypto';
import type { Ed25519Verify } from '@clearance/fold/internal/events/ed25519.js';

/** The SubjectPublicKeyInfo DER prefix of an Ed25519 key (RFC 8410): 12 bytes, then the 32 of the key. */
const SPKI_PREFIX = Uint8Array.of(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00);

/** Ed25519 by Node's own crypto: what every decider on Node is made with. */
export const nodeEd25519: Ed25519Verify = (signature, message, publicKey) => {
  const spki = new Uint8Array(44);
  spki.set(SPKI_PREFIX);
  spki.set(publicKey, 12);
  return verify(
    null,
    message,
    createPublicKey({ key: Buffer.from(spki), format: 'der', type: 'spki' }),
    signature,
  );
};
