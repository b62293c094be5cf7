import { htmlAttribute, htmlText } from '../text/untrusted.js';

/**
 * A tagged template that encodes every interpolated value unless it is markup this module built:
 * text from a log can never become markup, whatever it contains. Where a value lands decides its
 * encoding, read from the template's own literal text before it: inside a tag (an attribute value)
 * it is `htmlAttribute`, every control and bidi character shown escaped; inside `<title>`, whose
 * text is never parsed as markup, the same; elsewhere it is `htmlText`, with a bidi control
 * isolated in `<bdi>` so that it cannot reorder the page around it.
 */

export type Markup = Readonly<{ markup: string }>;
export type Part = string | number | boolean | null | undefined | Markup | ReadonlyArray<Part>;

type Sink = 'text' | 'attribute';

const isMarkup = (v: Part): v is Markup => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Inside a tag when its last `<` comes after its last `>`; in `<title>` when it is still open. */
const sinkAfter = (literal: string): Sink =>
  literal.lastIndexOf('<') > literal.lastIndexOf('>') ||
  literal.toLowerCase().lastIndexOf('<title') > literal.toLowerCase().lastIndexOf('</title')
    ? 'attribute'
    : 'text';

const render = (v: Part, sink: Sink): string => {
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map((part) => render(part, sink)).join('');
  if (isMarkup(v)) return v.markup;
  return sink === 'attribute' ? htmlAttribute(String(v)) : htmlText(String(v));
};

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Part>): Markup => {
  let literal = '';
  let markup = '';
  strings.forEach((s, i) => {
    literal += s;
    markup += s;
    if (i < values.length) markup += render(values[i], sinkAfter(literal));
  });
  return { markup };
};
