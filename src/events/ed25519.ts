/**
 * Ed25519 verification as the pure layer sees it: a function handed in by whoever builds the
 * decider (`createDecider({ verifyEd25519 })`), never a module's state. On Node that is the host's
 * crypto (`src/signing/node-ed25519.ts`); in a browser, @noble/curves (`@clearance/fold/ed25519`).
 * Synchronous either way, since `evolve` is.
 */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

/**
 * Whether `signature` is the Ed25519 signature of `message` by `publicKey` (32 raw bytes), or
 * `unverifiable` when no verifier was handed in. Total: a signature or key of the wrong length,
 * and a verifier that throws (a key that is no point on the curve), verify nothing.
 */
export const ed25519Holds = (
  verify: Ed25519Verify | undefined,
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: Uint8Array,
): boolean | 'unverifiable' => {
  if (verify === undefined) return 'unverifiable';
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  try {
    return verify(signature, message, publicKey) === true;
  } catch {
    return false;
  }
};
