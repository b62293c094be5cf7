/**
 * Ed25519 signature verification for the pure layer: a signed ruling is checked by `evolve`, in a
 * browser too. On Node the host's own crypto verifies it, handed over by `process.getBuiltinModule`
 * (a property lookup, not an import: no bundler sees a Node built-in, and the CLI's start-up loads
 * no curve code); elsewhere a JavaScript implementation must be handed in once with
 * `useEd25519` (`clearance/fold` does so with @noble/curves). Synchronous either way.
 */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean;

type KeyObject = unknown;
type NodeCrypto = {
  createPublicKey: (key: { key: Uint8Array; format: 'der'; type: 'spki' }) => KeyObject;
  verify: (algorithm: null, data: Uint8Array, key: KeyObject, signature: Uint8Array) => boolean;
};
type Host = { process?: { getBuiltinModule?: (id: string) => NodeCrypto | undefined } };

/** The SubjectPublicKeyInfo DER prefix of an Ed25519 key (RFC 8410): 12 bytes, then the 32 of the key. */
const SPKI_PREFIX = Uint8Array.of(0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00);

const nodeCrypto = (globalThis as Host).process?.getBuiltinModule?.('node:crypto');

const nodeVerify: Ed25519Verify | undefined =
  nodeCrypto === undefined
    ? undefined
    : (signature, message, publicKey) => {
        if (publicKey.length !== 32 || signature.length !== 64) return false;
        const spki = new Uint8Array(44);
        spki.set(SPKI_PREFIX);
        spki.set(publicKey, 12);
        try {
          return nodeCrypto.verify(
            null,
            message,
            nodeCrypto.createPublicKey({ key: spki, format: 'der', type: 'spki' }),
            signature,
          );
        } catch {
          return false; // a key that is no point on the curve verifies nothing
        }
      };

let handedIn: Ed25519Verify | undefined;

/** Hand in a JavaScript Ed25519 verifier, for a host without Node's crypto (a browser). */
export const useEd25519 = (verify: Ed25519Verify): void => {
  handedIn ??= verify;
};

/**
 * Whether `signature` is the Ed25519 signature of `message` by `publicKey` (32 raw bytes). A host
 * that has neither Node's crypto nor a verifier handed in cannot check it: it throws, naming the fix,
 * rather than accept or refuse a ruling it could not check.
 */
export const verifyEd25519: Ed25519Verify = (signature, message, publicKey) => {
  const verify = nodeVerify ?? handedIn;
  if (verify === undefined)
    throw new Error(
      'no Ed25519 verifier on this host: import clearance/fold, which hands one in (@noble/curves)',
    );
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  return verify(signature, message, publicKey);
};
