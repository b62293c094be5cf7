import { showControls } from '../text/untrusted.js';

/**
 * The characters no identity or one-line field may hold: what a terminal, a CI log or a viewer acts
 * on rather than shows. C0 (NUL, newline, tab, ESC …), DEL and C1 controls; the bidi embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) that reorder the text around them; and the
 * line and paragraph separators (U+2028, U+2029) some viewers break lines at. It is the set
 * `src/text/untrusted.ts` escapes at every output (`hasControl`); a test holds the two equal.
 *
 * Written once as the body of a character class, so the published JSON Schema `pattern`s carry the
 * very set the checks use.
 */
export const CONTROL_CLASS = '\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029';

const FIRST_CONTROL = new RegExp(`[${CONTROL_CLASS}]`, 'u');

const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;
const SEPARATOR = /[\u2028\u2029]/u;

/**
 * The first such character, named as a reason completes "… holds …": `the control character \n`,
 * `the bidi control \u202e`. The character itself is shown escaped, so the reason carries none raw.
 */
export const controlIn = (s: string): string | undefined => {
  const found = FIRST_CONTROL.exec(s)?.[0];
  if (found === undefined) return undefined;
  const shown = showControls(found);
  if (BIDI.test(found)) return `the bidi control ${shown}`;
  if (SEPARATOR.test(found)) return `the line separator ${shown}`;
  return `the control character ${shown}`;
};
