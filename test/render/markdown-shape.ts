import markdownIt from 'markdown-it';

/**
 * Markdown read as GitHub reads it, near enough: CommonMark with tables, raw HTML on and bare URLs
 * linked (GitHub's autolinks). The shape of a document is its tokens' types, blocks and inlines, in
 * order: a value that opened a link, emphasis, code, a heading or a table cell would change it.
 */
const parser = markdownIt('default', { html: true, linkify: true, typographer: false });

type Token = ReturnType<typeof parser.parse>[number];

const shapeOf = (tokens: ReadonlyArray<Token>): string[] =>
  tokens.flatMap((t) => [
    t.type === 'heading_open' ? `${t.type}:${t.tag}` : t.type,
    ...(t.children === null ? [] : shapeOf(t.children)),
  ]);

export const markdownShape = (markdown: string): string[] => shapeOf(parser.parse(markdown, {}));

/**
 * The shape with each code span read as the text it is (a literal: `markdownLiteral` wraps a value
 * in one where it would otherwise be Markdown) and runs of text as one: a value shown literally
 * leaves this shape as it was, whatever it holds.
 */
export const literalShape = (markdown: string): string[] =>
  markdownShape(markdown)
    .map((t) => (t === 'code_inline' ? 'text' : t))
    .filter((t, i, all) => t !== 'text' || all[i - 1] !== 'text');

/** What no value from the log may make: a link, an image, raw HTML. */
export const ACTIVE_MARKDOWN = ['link_open', 'image', 'html_inline', 'html_block'];

/** The text of each heading, in order. */
export const headingsOf = (markdown: string): string[] => {
  const tokens = parser.parse(markdown, {});
  return tokens.flatMap((t, i) => (t.type === 'heading_open' ? [tokens[i + 1]?.content ?? ''] : []));
};
