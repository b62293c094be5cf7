import { controlIn } from './control-characters.js';
import { quoted } from './quoted.js';
import { type Rejection, rejection } from './rejection.js';
import { isWellFormed } from './report-text.js';

/**
 * The grammar of the author's reason for a dispute: one printable line, as the issue asks ("one
 * sentence of reasoning"), not blank, at most 2,000 characters (a summary's bound: a reviewer
 * reads it in a list and a brief), no control, bidi control or line separator, well-formed
 * Unicode. Detail that needs lines belongs in the code or the next report's evidence.
 */
export const DISPUTE_REASON_MAX = 2000;

/** `empty-field`, `over-limit` or `invalid-text` for a reason that breaks the grammar; else undefined. */
export const disputeReasonRejection = (reason: string): Rejection | undefined => {
  const path = ['reason'];
  if (reason.trim() === '')
    return rejection('empty-field', 'the reason is empty: say in one line why the finding is wrong', path);
  if (reason.length > DISPUTE_REASON_MAX)
    return rejection(
      'over-limit',
      `the reason is ${reason.length} characters long, over the ${DISPUTE_REASON_MAX} a dispute's reason may have: say it in one line`,
      path,
    );
  const control = controlIn(reason);
  const problem =
    control !== undefined
      ? `holds ${control}`
      : isWellFormed(reason)
        ? undefined
        : 'holds a lone surrogate (half of a UTF-16 pair)';
  return problem === undefined
    ? undefined
    : rejection(
        'invalid-text',
        `the reason ${quoted(reason)} ${problem}: a dispute's reason is one line of printable text`,
        path,
      );
};
