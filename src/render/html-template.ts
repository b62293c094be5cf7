/**
 * A tagged template that escapes every interpolated value unless it is markup this module built:
 * text from a log can never become markup, whatever it contains.
 */

export type Markup = Readonly<{ markup: string }>;
export type Part = string | number | boolean | null | undefined | Markup | ReadonlyArray<Part>;

export const escapeHtml = (s: string): string =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

const isMarkup = (v: Part): v is Markup => typeof v === 'object' && v !== null && !Array.isArray(v);

const render = (v: Part): string => {
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  if (isMarkup(v)) return v.markup;
  return escapeHtml(String(v));
};

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Part>): Markup => ({
  markup: strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]) : ''), ''),
});
