/**
 * Just enough CommonMark block structure to find headings: ATX and setext headings, fenced code
 * blocks (whose contents are never headings) and YAML front matter (whose closing `---` would
 * otherwise read as a setext underline). Inline markup is not interpreted: a heading's text is
 * what its author typed.
 */

export type Heading = Readonly<{
  /** trimmed, inner whitespace collapsed */
  text: string;
  level: number;
  /** 0-based index of its first line */
  start: number;
  /** 0-based index of its last line (the underline of a setext heading) */
  end: number;
}>;

export type MarkdownScan = Readonly<{
  lines: ReadonlyArray<string>;
  headings: ReadonlyArray<Heading>;
  /** 0-based indexes of lines read verbatim: fenced code (fences included) and front matter */
  literal: ReadonlySet<number>;
}>;

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*))?$/;
const ATX_CLOSING = /(?:^|[ \t]+)#+[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const LIST_ITEM = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLOCK_QUOTE = /^ {0,3}>/;
const INDENTED_CODE = /^(?: {4}|\t)/;

export const normalizeHeading = (text: string): string => text.trim().replace(/\s+/g, ' ');

export const splitLines = (text: string): string[] => text.replace(/^\uFEFF/, '').split(/\r?\n/);

/** A fence closes with the same character, at least as long, and nothing after it. */
const closesFence = (line: string, fence: string): boolean => {
  const m = FENCE.exec(line);
  const marker = m?.[1];
  return (
    marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && m?.[2]?.trim() === ''
  );
};

/** Backtick fences may not carry a backtick in their info string (that is inline code). */
const opensFence = (line: string): string | undefined => {
  const m = FENCE.exec(line);
  const marker = m?.[1];
  if (marker === undefined) return undefined;
  return marker[0] === '`' && (m?.[2] ?? '').includes('`') ? undefined : marker;
};

const frontMatterEnd = (lines: ReadonlyArray<string>): number => {
  if (lines[0]?.trimEnd() !== '---') return -1;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]?.trimEnd();
    if (line === '---' || line === '...') return i;
  }
  return -1;
};

const atxText = (m: RegExpExecArray): string => normalizeHeading((m[2] ?? '').replace(ATX_CLOSING, ''));

export const scanMarkdown = (text: string): MarkdownScan => {
  const lines = splitLines(text);
  const headings: Heading[] = [];
  const literal = new Set<number>();
  const matterEnd = frontMatterEnd(lines);
  for (let i = 0; i <= matterEnd; i++) literal.add(i);

  let fence: string | undefined;
  let paragraph: { start: number; text: string[] } | undefined;
  for (let i = matterEnd + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (fence !== undefined) {
      literal.add(i);
      if (closesFence(line, fence)) fence = undefined;
      continue;
    }
    const underline = SETEXT_UNDERLINE.exec(line);
    if (paragraph !== undefined && underline !== null) {
      const level = underline[1]?.startsWith('=') ? 1 : 2;
      headings.push({
        text: normalizeHeading(paragraph.text.join(' ')),
        level,
        start: paragraph.start,
        end: i,
      });
      paragraph = undefined;
      continue;
    }
    const opened = opensFence(line);
    if (opened !== undefined) {
      fence = opened;
      literal.add(i);
      paragraph = undefined;
      continue;
    }
    const atx = ATX.exec(line);
    if (atx !== null) {
      headings.push({ text: atxText(atx), level: atx[1]?.length ?? 1, start: i, end: i });
      paragraph = undefined;
      continue;
    }
    if (line.trim() === '' || THEMATIC_BREAK.test(line) || LIST_ITEM.test(line) || BLOCK_QUOTE.test(line)) {
      paragraph = undefined;
    } else if (paragraph !== undefined) {
      paragraph.text.push(line);
    } else if (!INDENTED_CODE.test(line)) {
      paragraph = { start: i, text: [line] };
    }
  }
  return { lines, headings, literal };
};

/** The headings of a Markdown document, in order, empty ones left out. */
export const headingsOf = (text: string): ReadonlyArray<Heading> =>
  scanMarkdown(text).headings.filter((h) => h.text !== '');
