import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import markdownIt, { type Token } from 'markdown-it';

/**
 * The repository's Markdown as GitHub reads it, for the documentation tests: its files, the links
 * in each, the anchors its headings get, and the shell examples marked runnable. Parsed with
 * markdown-it (CommonMark with GitHub's tables), the parser clearance reads reviews with, so a
 * link inside a code span or a fence is text, as on GitHub, and never checked as a link.
 */

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** What is built or installed, not written here (as test/architecture/self-contained.test.ts). */
const NOT_OURS = new Set(['node_modules', 'dist', 'lib', '.git', 'coverage']);

/** Every Markdown file of the repository, relative to its root, in a stable order. */
export const markdownFiles = (root = ROOT): string[] => {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      if (NOT_OURS.has(entry.name)) return [];
      const rel = dir === '' ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(rel);
      return entry.name.endsWith('.md') ? [rel] : [];
    });
  return walk('').sort();
};

// html: an HTML comment is a block of its own, as GitHub renders it (the runnable marker is one)
const md = markdownIt({ html: true });

/** Block tokens with their inline children in place, each child carrying its block's line. */
const tokensOf = (text: string): ReadonlyArray<Readonly<{ token: Token; line: number }>> =>
  md.parse(text, {}).flatMap((block) => {
    const line = (block.map?.[0] ?? 0) + 1;
    return [{ token: block, line }, ...(block.children ?? []).map((token) => ({ token, line }))];
  });

export type Link = Readonly<{ target: string; line: number }>;

/** Every link and image target of a Markdown text, as written (markdown-it's normalised form). */
export const linksOf = (text: string): Link[] =>
  tokensOf(text).flatMap(({ token, line }) => {
    const target =
      token.type === 'link_open'
        ? token.attrGet('href')
        : token.type === 'image'
          ? token.attrGet('src')
          : null;
    return typeof target === 'string' ? [{ target, line }] : [];
  });

/** A link that leaves the repository's files: another site, mail, or a protocol-relative URL. */
export const isExternal = (target: string): boolean =>
  /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');

/**
 * GitHub's anchor for a heading (the rule github-slugger implements): the heading's rendered text
 * lower-cased, every character dropped that is not a letter, a mark, a decimal or letter number, a
 * connector (`_`), a space or a hyphen, then each space made a hyphen. Nothing is trimmed or
 * collapsed: `a -- b` is `a----b`.
 */
export const slugOf = (heading: string): string =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}\p{Nl}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

/** The text a heading renders as: its words, code spans without their backticks, no markup. */
const renderedText = (inline: Token | undefined): string =>
  (inline?.children ?? [])
    .filter((t) => t.type === 'text' || t.type === 'code_inline')
    .map((t) => t.content)
    .join('');

/**
 * The anchors a Markdown file's headings get on GitHub, in order: a heading whose slug was taken
 * before gets `-1`, `-2`, … as GitHub numbers repeats.
 */
export const anchorsOf = (text: string): string[] => {
  const tokens = md.parse(text, {});
  const taken = new Map<string, number>();
  const anchors: string[] = [];
  tokens.forEach((token, i) => {
    if (token.type !== 'heading_open') return;
    const base = slugOf(renderedText(tokens[i + 1]).trim());
    let slug = base;
    while (taken.has(slug)) {
      const n = (taken.get(base) ?? 0) + 1;
      taken.set(base, n);
      slug = `${base}-${n}`;
    }
    taken.set(slug, 0);
    anchors.push(slug);
  });
  return anchors;
};

/** The comment that marks the next fenced block as an example the tests run. */
export const RUNNABLE_MARKER = '<!-- runnable -->';

export type Runnable = Readonly<{ line: number; code: string }>;

/**
 * The shell blocks a Markdown text marks runnable: a ```sh fence right after a
 * `<!-- runnable -->` comment (blank lines between are fine; they render the same). A marker
 * followed by anything else is an error, never silently skipped: it would mark nothing.
 */
export const runnableBlocks = (text: string): Runnable[] => {
  const tokens = md.parse(text, {});
  const blocks: Runnable[] = [];
  tokens.forEach((token, i) => {
    if (token.type !== 'html_block' || token.content.trim() !== RUNNABLE_MARKER) return;
    const line = (token.map?.[0] ?? 0) + 1;
    const next = tokens[i + 1];
    if (next?.type !== 'fence' || next.info.trim() !== 'sh') {
      throw new Error(`line ${line}: ${RUNNABLE_MARKER} must be followed by a \`\`\`sh block`);
    }
    blocks.push({ line: (next.map?.[0] ?? 0) + 1, code: next.content });
  });
  return blocks;
};

/** The fenced blocks of one language, in order, with their first line. */
export const fencedBlocks = (text: string, info: string): Runnable[] =>
  md
    .parse(text, {})
    .filter((t) => t.type === 'fence' && t.info.trim() === info)
    .map((t) => ({ line: (t.map?.[0] ?? 0) + 1, code: t.content }));
