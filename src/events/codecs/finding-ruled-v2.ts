import * as t from 'io-ts';
import { FindingRuledV1, RoundsExtendedV1 } from './events-v2.js';

/**
 * `finding.ruled` and `rounds.extended` v2: a person's decision may carry its signature, under a
 * policy that pins `signers`. The signature is Ed25519 by the key of the principal the decision
 * names (`by`), over the canonical JSON of the run id, the hash of the log line the event follows
 * (`follows`) and the decision itself (src/events/ruling-signature.ts). v1 has none: it upcasts
 * unchanged, and a policy without signers (every run before v2) needs none.
 */
export const RulingSignatureV1 = t.type({
  /** the SSH fingerprint of the key that signed it (`SHA256:…`) */
  keyid: t.string,
  /** the Ed25519 signature, base64 */
  sig: t.string,
  /** the SHA-256 of the log line the event follows: a signature made for one place is no good at another */
  follows: t.string,
});

export const FindingRuledV2 = t.intersection([FindingRuledV1, t.partial({ signature: RulingSignatureV1 })]);
export const RoundsExtendedV2 = t.intersection([
  RoundsExtendedV1,
  t.partial({ signature: RulingSignatureV1 }),
]);

export const upcastFindingRuledV1 = (v1: t.TypeOf<typeof FindingRuledV1>): t.TypeOf<typeof FindingRuledV2> =>
  v1;
export const upcastRoundsExtendedV1 = (
  v1: t.TypeOf<typeof RoundsExtendedV1>,
): t.TypeOf<typeof RoundsExtendedV2> => v1;
