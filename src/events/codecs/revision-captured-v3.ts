import * as t from 'io-ts';
import { RevisionCapturedV2 } from './revision-captured-v2.js';

/**
 * `revision.captured` v3: a capture from git carries where each open finding's cited line went
 * (`moves`), mapped through the diff between the input the last round reviewed and this one. A
 * move names the finding, the line it stood at (`from`) and the line it stands at now (`to`);
 * `outdated` when the line itself was deleted or rewritten, `to` then being where its code was.
 * The round that reviews this input applies them, as it applies `renames`. v2 has no moves: it
 * upcasts unchanged, and its findings keep the lines they were cited at.
 */
export const LineMoveV1 = t.intersection([
  t.type({ id: t.string, from: t.number, to: t.number }),
  t.partial({ outdated: t.literal(true) }),
]);

export const RevisionCapturedV3 = t.intersection([
  RevisionCapturedV2,
  t.partial({ moves: t.array(LineMoveV1) }),
]);

export const upcastRevisionCapturedV2 = (
  v2: t.TypeOf<typeof RevisionCapturedV2>,
): t.TypeOf<typeof RevisionCapturedV3> => v2;
