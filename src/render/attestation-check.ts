import { type Ed25519Verify, ed25519Holds } from '../events/ed25519.js';
import type { SshEd25519Key } from '../events/ssh-public-key.js';
import { REVIEW_PREDICATE_TYPE, type ReviewStatement, STATEMENT_TYPE } from './attestation.js';
import { IN_TOTO_PAYLOAD_TYPE, preAuthEncoding, readEnvelope } from './dsse.js';

/** Why an attestation does not hold, in the words `attest --verify` and `audit` say it. */
export type AttestationReason = 'envelope' | 'signature' | 'signer' | 'subject' | 'head' | 'verdict';

export type EnvelopeCheck =
  | Readonly<{ valid: true; signer: SshEd25519Key; statement: ReviewStatement }>
  | Readonly<{ valid: false; reason: AttestationReason; message: string }>;

const refused = (reason: AttestationReason, message: string): EnvelopeCheck => ({
  valid: false,
  reason,
  message,
});

/**
 * Check a DSSE envelope holding a clearance review statement against the keys that may sign it:
 * its shape, then a signature over the pre-authentication encoding by one of `keys`, then that
 * the payload is an in-toto Statement v1 of clearance's `review/v1` predicate. What the statement
 * says (its subject, its log head, its verdict) is the caller's to compare.
 */
export const checkEnvelope = (
  verify: Ed25519Verify,
  value: unknown,
  keys: ReadonlyArray<SshEd25519Key>,
): EnvelopeCheck => {
  const envelope = readEnvelope(value);
  if (typeof envelope === 'string') return refused('envelope', `not a DSSE envelope: ${envelope}`);
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return refused(
      'envelope',
      `payloadType is ${JSON.stringify(envelope.payloadType)}, not ${IN_TOTO_PAYLOAD_TYPE}`,
    );
  const signed = preAuthEncoding(envelope.payloadType, envelope.payload);
  let namedButBad = false;
  for (const sig of envelope.signatures) {
    for (const key of keys) {
      if (ed25519Holds(verify, sig.sig, signed, key.publicKey) === true) {
        let statement: unknown;
        try {
          statement = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(envelope.payload));
        } catch {
          return refused('envelope', 'the signed payload is not UTF-8 JSON');
        }
        const s = statement as Partial<ReviewStatement> | null;
        if (
          s?._type !== STATEMENT_TYPE ||
          s.predicateType !== REVIEW_PREDICATE_TYPE ||
          typeof s.predicate !== 'object'
        )
          return refused(
            'envelope',
            `the payload is not an in-toto Statement v1 of ${REVIEW_PREDICATE_TYPE} (its _type ${JSON.stringify(s?._type)}, predicateType ${JSON.stringify(s?.predicateType)})`,
          );
        return { valid: true, signer: key, statement: statement as ReviewStatement };
      }
      if (sig.keyid === key.keyid) namedButBad = true;
    }
  }
  return namedButBad
    ? refused(
        'signature',
        'the signature does not verify: the envelope was changed after it was signed, or signed by another key under this key id',
      )
    : refused(
        'signer',
        `no allowed key signed it (its signatures name ${envelope.signatures.map((s) => s.keyid || 'no key id').join(', ')})`,
      );
};
