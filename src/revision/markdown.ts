import markdownIt, { type MarkdownIt, type Token } from 'markdown-it';

/**
 * Markdown read as CommonMark with GitHub's tables and strikethrough (markdown-it), turned into a
 * small tree of blocks. One parse decides, for prose reviews and `doc.md § Heading` citations alike,
 * what a heading, a list item, a block quote or code is: a heading inside an HTML comment or a
 * fence is none, a heading inside a block quote is one.
 *
 * Each block that holds text keeps it twice: `source`, what its author typed with the container
 * markers (`>`, list indentation) taken away, and `plain`, the text as it renders (emphasis
 * markers, backticks and escapes gone). A citation is parsed from the source, so that
 * `src/__init__.py:3` keeps its underscores; whether an item starts with a bracketed word is
 * decided on the plain text, so that `**[major]**` does. Inline HTML (a comment in a line) renders
 * as nothing, so it is kept apart, in `html`, for a reader that must not miss what it hides.
 */

/** A piece of inline HTML (a tag, a comment), which renders as no text: its `line` within the inline's source. */
export type InlineHtml = Readonly<{ line: number; literal: string }>;

export type Inline = Readonly<{ source: string; plain: string; html: ReadonlyArray<InlineHtml> }>;

export type Block = Readonly<{
  /** markdown-it's block name without `_open`: heading, paragraph, list_item, blockquote, fence, … */
  kind: string;
  /** for a heading, 1 to 6 */
  level: number;
  /** 0-based first line */
  start: number;
  /** 0-based last line */
  end: number;
  /** the text of a paragraph, a heading or a table cell */
  inline?: Inline;
  /** the literal text of code and HTML blocks */
  literal?: string;
  children: ReadonlyArray<Block>;
}>;

export type Heading = Readonly<{
  /** the rendered plain text, trimmed, inner whitespace collapsed */
  text: string;
  /** what its author typed, trimmed, inner whitespace collapsed */
  source: string;
  level: number;
  /** 0-based index of its first line */
  start: number;
  /** 0-based index of its last line (the underline of a setext heading) */
  end: number;
}>;

export const normalizeHeading = (text: string): string => text.trim().replace(/\s+/g, ' ');

/** Lines as CommonMark ends them: LF, CRLF or a lone CR. */
export const splitLines = (text: string): string[] => text.split(/\r\n?|\n/);

let parser: MarkdownIt | undefined;
// built on first use: the CLI's cold start pays nothing for commands that never read Markdown
const commonMark = (): MarkdownIt => {
  parser ??= markdownIt('default', { html: true, linkify: false, typographer: false });
  return parser;
};

/**
 * YAML front matter is not Markdown, but GitHub hides it: blank its lines (keeping the line
 * count) so its closing `---` does not turn the last key into a setext heading.
 */
const withoutFrontMatter = (lines: string[]): string[] => {
  if (lines[0]?.trimEnd() !== '---') return lines;
  const close = lines.findIndex((line, i) => i > 0 && (line.trimEnd() === '---' || line.trimEnd() === '...'));
  return close === -1 ? lines : lines.map((line, i) => (i <= close ? '' : line));
};

const plainOf = (tokens: ReadonlyArray<Token>): string =>
  tokens
    .map((t) => {
      switch (t.type) {
        case 'text':
        case 'text_special':
        case 'code_inline':
          return t.content;
        case 'softbreak':
        case 'hardbreak':
          return '\n';
        case 'image':
          return plainOf(t.children ?? []);
        default:
          return '';
      }
    })
    .join('');

/** The inline HTML of an inline's tokens, each placed on its line of `source` (the tokens keep no map). */
const htmlOf = (source: string, tokens: ReadonlyArray<Token>): InlineHtml[] => {
  const html: InlineHtml[] = [];
  let from = 0;
  for (const t of tokens) {
    if (t.type !== 'html_inline') continue;
    const at = source.indexOf(t.content, from);
    const offset = at === -1 ? from : at;
    html.push({ line: source.slice(0, offset).split('\n').length - 1, literal: t.content });
    from = offset + t.content.length;
  }
  return html;
};

type Building = { -readonly [K in keyof Block]: K extends 'children' ? Building[] : Block[K] };

const blockOf = (t: Token, parent: Building): Building => ({
  kind: t.type.replace(/_open$/, ''),
  level: t.tag.startsWith('h') ? Number(t.tag.slice(1)) || 0 : 0,
  start: t.map?.[0] ?? parent.start,
  end: t.map === null ? parent.end : t.map[1] - 1,
  children: [],
});

/** The document's blocks in order, and its lines (numbered as `start`/`end` number them). */
export const parseMarkdown = (text: string): Readonly<{ blocks: ReadonlyArray<Block>; lines: string[] }> => {
  const lines = withoutFrontMatter(splitLines(text.replace(/^\uFEFF/, '')));
  const root: Building = { kind: 'root', level: 0, start: 0, end: lines.length - 1, children: [] };
  const open: Building[] = [root];
  for (const t of commonMark().parse(lines.join('\n'), {})) {
    const top = open[open.length - 1] ?? root;
    if (t.nesting === 1) {
      const block = blockOf(t, top);
      top.children.push(block);
      open.push(block);
    } else if (t.nesting === -1) {
      open.pop();
    } else if (t.type === 'inline') {
      const children = t.children ?? [];
      top.inline = { source: t.content, plain: plainOf(children), html: htmlOf(t.content, children) };
    } else {
      top.children.push({ ...blockOf(t, top), literal: t.content });
    }
  }
  return { blocks: root.children, lines };
};

const collectHeadings = (blocks: ReadonlyArray<Block>, into: Heading[]): Heading[] => {
  for (const b of blocks) {
    if (b.kind === 'heading' && b.inline !== undefined) {
      into.push({
        text: normalizeHeading(b.inline.plain),
        source: normalizeHeading(b.inline.source),
        level: b.level,
        start: b.start,
        end: b.end,
      });
    }
    collectHeadings(b.children, into);
  }
  return into;
};

/** The headings of a Markdown document, in order (block quotes and list items included), empty ones left out. */
export const headingsOf = (text: string): ReadonlyArray<Heading> =>
  collectHeadings(parseMarkdown(text).blocks, []).filter((h) => h.text !== '' || h.source !== '');
