import * as t from 'io-ts';
import { RevisionCapturedV1 } from './revision-captured-v1.js';

/**
 * `revision.captured` v2: a capture may say it reviews again the very input the round before
 * reviewed, and why (`capture --same-input --reason`). Without it such a capture is refused
 * (`unchanged-input`), and the policy's `sameInputRounds` bounds how many a run holds. v1 has no
 * such capture: it upcasts unchanged.
 */
export const SameInputV1 = t.type({ reason: t.string });

export const RevisionCapturedV2 = t.intersection([RevisionCapturedV1, t.partial({ sameInput: SameInputV1 })]);

export const upcastRevisionCapturedV1 = (
  v1: t.TypeOf<typeof RevisionCapturedV1>,
): t.TypeOf<typeof RevisionCapturedV2> => v1;
