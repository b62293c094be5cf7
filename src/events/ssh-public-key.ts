import { fromBase64, toBase64 } from './base64.js';
import { sha256Hex } from './sha256.js';

/**
 * An Ed25519 public key as OpenSSH writes it (`ssh-ed25519 AAAAC3Nza… comment`, the form of a
 * `.pub` file, an `allowed_signers` line and a policy's `signers`): the key type, then base64 of the
 * SSH wire blob (RFC 8709: string "ssh-ed25519", string key). Parsed here, purely, because a policy
 * pins its signers in the log and the fold checks signed rulings against them.
 */
export type SshEd25519Key = Readonly<{
  /** the 32 raw bytes of the key */
  publicKey: Uint8Array;
  /** `SHA256:…`, the fingerprint `ssh-keygen -l` prints (base64 of the blob's SHA-256, unpadded) */
  keyid: string;
  /** `ssh-ed25519 AAAA…`, without a comment: the form a policy and an attestation name a key by */
  text: string;
}>;

const TYPE = 'ssh-ed25519';

const u32 = (bytes: Uint8Array, at: number): number =>
  (((bytes[at] ?? 0) << 24) |
    ((bytes[at + 1] ?? 0) << 16) |
    ((bytes[at + 2] ?? 0) << 8) |
    (bytes[at + 3] ?? 0)) >>>
  0;

const hexToBytes = (hex: string): Uint8Array =>
  Uint8Array.from(hex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));

/** The fingerprint of an SSH key blob, as OpenSSH prints it. */
export const sshFingerprint = (blob: Uint8Array): string =>
  `SHA256:${toBase64(hexToBytes(sha256Hex(blob))).replace(/=+$/, '')}`;

/** The key of `ssh-ed25519 <base64> [comment]`, or what is wrong with the text. */
export const parseSshEd25519 = (text: string): SshEd25519Key | string => {
  const [type, encoded] = text.trim().split(/\s+/);
  if (type !== TYPE)
    return `not an ${TYPE} key (only Ed25519 keys sign here): it starts ${JSON.stringify(type ?? '')}`;
  const blob = encoded === undefined ? null : fromBase64(encoded);
  if (blob === null) return 'its key is not base64';
  const typeLength = u32(blob, 0);
  const named = new TextDecoder().decode(blob.subarray(4, 4 + typeLength));
  const keyLength = u32(blob, 4 + typeLength);
  const publicKey = blob.subarray(8 + typeLength, 8 + typeLength + keyLength);
  if (named !== TYPE || keyLength !== 32 || publicKey.length !== 32 || blob.length !== 8 + typeLength + 32)
    return `its key blob is not an ${TYPE} key`;
  return { publicKey: Uint8Array.from(publicKey), keyid: sshFingerprint(blob), text: `${TYPE} ${encoded}` };
};

/** The text form of 32 raw key bytes: `ssh-ed25519 AAAA…`. */
export const sshEd25519Text = (publicKey: Uint8Array): string => {
  const name = new TextEncoder().encode(TYPE);
  const blob = new Uint8Array(4 + name.length + 4 + 32);
  const view = new DataView(blob.buffer);
  view.setUint32(0, name.length);
  blob.set(name, 4);
  view.setUint32(4 + name.length, 32);
  blob.set(publicKey, 8 + name.length);
  return `${TYPE} ${toBase64(blob)}`;
};
