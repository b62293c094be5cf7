import * as t from 'io-ts';
import { FindingRuledV1 } from './finding-ruled-v1.js';
import { RulingSignatureV1 } from './ruling-signature-v1.js';

/**
 * `finding.ruled` v2: a ruling may carry its signature. v1 has none: it upcasts unchanged, and a
 * policy without signers (every run before v2) needs none. Never edit: add a version.
 */
export const FindingRuledV2 = t.intersection([FindingRuledV1, t.partial({ signature: RulingSignatureV1 })]);

export const upcastFindingRuledV1 = (v1: t.TypeOf<typeof FindingRuledV1>): t.TypeOf<typeof FindingRuledV2> =>
  v1;
