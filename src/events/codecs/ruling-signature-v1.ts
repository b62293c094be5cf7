import * as t from 'io-ts';

/**
 * A person's decision signed, under a policy that pins `signers` (`finding.ruled` and
 * `rounds.extended` from v2): Ed25519 by the key of the principal the decision names (`by`), over
 * the canonical JSON of the run id, the hash of the log line the event follows (`follows`) and the
 * decision itself (src/events/ruling-signature.ts).
 */
export const RulingSignatureV1 = t.type({
  /** the SSH fingerprint of the key that signed it (`SHA256:…`) */
  keyid: t.string,
  /** the Ed25519 signature, base64 */
  sig: t.string,
  /** the SHA-256 of the log line the event follows: a signature made for one place is no good at another */
  follows: t.string,
});
