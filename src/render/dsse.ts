import { fromBase64, toBase64 } from '../events/base64.js';

/**
 * The DSSE envelope (Dead Simple Signing Envelope, secure-systems-lab/dsse, protocol v1): a payload,
 * its type, and signatures over the pre-authentication encoding of both, so a signature can never
 * be read as one over another type of payload. Pure: building and reading envelopes; signing is the
 * I/O layer's (a key file, an ssh-agent), verifying is `verifyEd25519`.
 */
export type DsseSignature = Readonly<{ keyid: string; sig: string }>;
export type DsseEnvelope = Readonly<{
  payload: string;
  payloadType: string;
  signatures: ReadonlyArray<DsseSignature>;
}>;

/** The in-toto attestation framework's payload type for a Statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';

const encoder = new TextEncoder();

/** PAE(type, body) = "DSSEv1" SP LEN(type) SP type SP LEN(body) SP body, LEN in ASCII decimal bytes. */
export const preAuthEncoding = (payloadType: string, payload: Uint8Array): Uint8Array => {
  const type = encoder.encode(payloadType);
  const head = encoder.encode(`DSSEv1 ${type.length} ${payloadType} ${payload.length} `);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
};

/** An envelope of `payload`, signed by each of `signatures` (each over `preAuthEncoding`). */
export const envelopeOf = (
  payloadType: string,
  payload: Uint8Array,
  signatures: ReadonlyArray<Readonly<{ keyid: string; sig: Uint8Array }>>,
): DsseEnvelope => ({
  payload: toBase64(payload),
  payloadType,
  signatures: signatures.map((s) => ({ keyid: s.keyid, sig: toBase64(s.sig) })),
});

/** An envelope read back from JSON: its payload and signatures as bytes, or what is wrong with it. */
export type ReadEnvelope = Readonly<{
  payloadType: string;
  payload: Uint8Array;
  signatures: ReadonlyArray<Readonly<{ keyid: string; sig: Uint8Array }>>;
}>;

export const readEnvelope = (value: unknown): ReadEnvelope | string => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not a JSON object';
  const { payload, payloadType, signatures } = value as Record<string, unknown>;
  if (typeof payloadType !== 'string') return 'payloadType is not a string';
  if (typeof payload !== 'string') return 'payload is not a string';
  const body = fromBase64(payload);
  if (body === null) return 'payload is not base64';
  if (!Array.isArray(signatures) || signatures.length === 0) return 'signatures is not a non-empty list';
  const read: Array<{ keyid: string; sig: Uint8Array }> = [];
  for (const [i, s] of signatures.entries()) {
    const { keyid, sig } = (s ?? {}) as Record<string, unknown>;
    const bytes = typeof sig === 'string' ? fromBase64(sig) : null;
    if (bytes === null) return `signatures[${i}].sig is not base64`;
    read.push({ keyid: typeof keyid === 'string' ? keyid : '', sig: bytes });
  }
  return { payloadType, payload: body, signatures: read };
};
