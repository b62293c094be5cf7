import { CONTROL_CLASS, controlIn } from './control-characters.js';
import { quoted } from './quoted.js';

/**
 * A one-line field (a candidate's and a verification's `summary`, `category` and `severity`, a
 * candidate's `section`): what names a finding in a list, a heading, an annotation or a table
 * cell. It holds no control character at all (no newline, tab or ESC), no bidi control and no line
 * separator, so it can never break the line it is shown in, nor reorder it. Detail that needs
 * lines goes in `evidence`, `principle` or `reproduction`, which may span lines and are escaped
 * wherever they are shown.
 */

/** What is wrong with `text` as one line, completing "the text …", or `undefined` when it is one. */
export const oneLineProblem = (text: string): string | undefined => {
  const control = controlIn(text);
  return control === undefined ? undefined : `holds ${control}`;
};

/** The message that refuses `value` as one line, after the field's name: the value, what is wrong, the fix. */
export const invalidOneLineText = (value: string, problem: string): string =>
  `${quoted(value)} ${problem}: this field is one line of text, without control characters (put detail in evidence)`;

/** The same rule as a JSON Schema `pattern`, for `clearance schema report`. */
export const ONE_LINE_PATTERN = `^[^${CONTROL_CLASS}]*$`;
