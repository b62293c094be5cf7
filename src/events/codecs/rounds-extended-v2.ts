import * as t from 'io-ts';
import { RoundsExtendedV1 } from './rounds-extended-v1.js';
import { RulingSignatureV1 } from './ruling-signature-v1.js';

/**
 * `rounds.extended` v2: an extension may carry its signature. v1 has none: it upcasts unchanged,
 * and a policy without signers (every run before v2) needs none. Never edit: add a version.
 */
export const RoundsExtendedV2 = t.intersection([
  RoundsExtendedV1,
  t.partial({ signature: RulingSignatureV1 }),
]);

export const upcastRoundsExtendedV1 = (
  v1: t.TypeOf<typeof RoundsExtendedV1>,
): t.TypeOf<typeof RoundsExtendedV2> => v1;
