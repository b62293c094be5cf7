/**
 * Untrusted text, encoded for the sink it is written to (OWASP's rule: encode at the sink, for the
 * sink). Whatever a reviewer, an agent or a log supplies (a summary, a file name, a `--by` name, a
 * reason) is data. It reaches four sinks, and every renderer goes through this module for each:
 *
 * - a terminal or a CI log (`plainText`): the Actions runner reads every line clearance prints,
 *   acting on one that starts with `::` (after leading whitespace) and on `##[` anywhere in a line;
 *   a terminal acts on ESC, the other C0 and C1 controls, and shows bidi overrides reordered;
 * - Markdown (`markdownText`, and `markdownLiteral` where the source is read raw): a string must
 *   stay one inline run of text, never a link, a heading, a table cell or HTML;
 * - HTML (`htmlText` and `htmlAttribute`): escaped, controls shown, bidi controls isolated;
 * - JSON printed where a person or a runner reads it (`jsonText`): the same value when parsed, with
 *   nothing in its bytes that a terminal or a runner acts on.
 *
 * Every control character is shown escaped (`\u001b`; the common three as `\n`, `\r`, `\t`): a
 * reviewer's string never breaks the line clearance began, so it can never start a line of its own.
 * It imports nothing: the events, the fold and every renderer may use it.
 */

/** C0, DEL and C1 controls: what a terminal may act on. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), and the line and
 * paragraph separators (U+2028, U+2029) that some viewers break lines at.
 */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

const BIDI_TEST = /[\u202a-\u202e\u2066-\u2069]/;
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\u001b`: the form a reader can see and copy, whatever the sink. */
const unicodeEscape = (c: string): string => `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

const showControl = (c: string): string => SHORT[c] ?? unicodeEscape(c);

/** Whether a string holds a character any sink acts on: a control, a bidi control or a separator. */
export const hasControl = (s: string): boolean => ANY_CONTROL.test(s);

/** Every control and bidi character shown escaped; the rest of the string as it was. */
export const showControls = (s: string): string =>
  s.replace(CONTROL, showControl).replace(BIDI, unicodeEscape);

/**
 * A runner command is `##[` anywhere in a line, or `::` at a line's start: the first is broken
 * wherever it appears, the second where a string begins (a string that begins a line, after
 * whitespace). The `[` and the second `:` are shown as escapes, so a person still reads them.
 */
const defuseRunnerCommands = (s: string): string =>
  s.replaceAll('##[', '##\\u005b').replace(/^(\s*):(?=:)/, '$1\\u003a');

/**
 * A string inside a line of text for a terminal or a CI log: every control and bidi character
 * shown escaped, and nothing the GitHub Actions runner reads as a workflow command.
 */
export const plainText = (s: string): string => defuseRunnerCommands(showControls(s));

/** Whitespace runs (newlines, tabs) as one space: what a reader of a Markdown brief expects. */
const oneLine = (s: string): string => s.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' ');

/**
 * A string inside one line of Markdown: whitespace runs as one space, the remaining controls shown
 * escaped, then every ASCII punctuation character backslash-escaped (CommonMark allows it for all
 * of them), so it cannot open a link, emphasis, a code span, a table cell, a heading or HTML. The
 * runner's `##[` and `::` cannot survive it either: `#`, `[` and `:` are all escaped.
 */
export const markdownText = (s: string): string =>
  showControls(oneLine(s)).replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);

/**
 * What starts something in a run of inline (GitHub-flavoured) Markdown: emphasis and strikethrough,
 * a code span, a link or an image, HTML or an autolink, an entity, an escape, a table cell, an
 * issue reference, a mention, math, and a bare URL GitHub would link.
 */
const MARKDOWN_ACTIVE = /[`*_~[\]!<>&\\|#@$]|:\/\/|www\./i;

/**
 * A string inside one line of Markdown that reads the same raw and rendered, for a reader that sees
 * the source (an agent reading its brief): whitespace runs as one space, controls shown escaped,
 * and as it is when nothing in it would start Markdown; otherwise one inline code span, fenced with
 * more backticks than any run inside it, in which nothing is a link, an image, HTML or a heading.
 */
export const markdownLiteral = (s: string): string => {
  const text = plainText(oneLine(s)).trim();
  if (text === '' || !MARKDOWN_ACTIVE.test(text)) return text;
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  // a span that begins or ends with a backtick needs a space inside the fence, which CommonMark strips
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
};

const escapeHtmlChars = (s: string): string =>
  s
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** Controls other than the whitespace HTML itself lays out (tab, newline, carriage return). */
const HTML_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * A string as HTML text content: escaped, controls shown escaped, and, when it holds a bidi
 * control, isolated in a `<bdi>` element so that its reordering stays inside it (a Trojan Source
 * summary cannot reorder the page around it).
 */
export const htmlText = (s: string): string => {
  const escaped = escapeHtmlChars(s.replace(HTML_CONTROL, unicodeEscape));
  return BIDI_TEST.test(s) ? `<bdi>${escaped}</bdi>` : escaped;
};

/** A string as an HTML attribute value: escaped, with every control and bidi character shown escaped. */
export const htmlAttribute = (s: string): string => escapeHtmlChars(showControls(s));

/**
 * JSON for a sink a person or a runner reads (standard output, a CI log): `JSON.stringify`, with
 * the characters it leaves raw (DEL, C1, bidi controls, the separators) written as `\u` escapes and
 * `##[` as `##\u005b`. Every JSON parser reads the same value back; no terminal or runner acts on
 * the bytes. (JSON.stringify already escapes C0; `##[` can only occur inside a string.)
 */
export const jsonText = (value: unknown, indent?: number): string =>
  JSON.stringify(value, null, indent)
    .replace(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g, unicodeEscape)
    .replaceAll('##[', '##\\u005b');
