import type { Candidate, Decision, Verdict } from '@clearance/fold/internal/events/report-types.js';
import * as E from 'fp-ts/lib/Either.js';
import { declaredVerdictOf, VERDICT_WORDS } from './declared-verdict.js';
import {
  EXPECTED,
  isFindingShaped,
  lacksSeverity,
  looksLikeFinding,
  parseReviewItem,
  startsLikeFinding,
  type Vocabulary,
} from './finding-item.js';
import { type Block, type Inline, parseMarkdown } from './markdown.js';
import { reviewTextOf } from './review-text.js';

/**
 * A review written as Markdown, read as CommonMark reads it:
 *
 *     Verdict: open
 *
 *     ## Findings
 *     - [major] src/a.ts:12 :: the handle leaks when the request is aborted
 *     * **[low]** `docs/guide.md § Install` :: the command needs sudo
 *     1. [fixed] 827f9ded38b8 :: closed in a finally block
 *     1. [reopened] 3f2a1b2c3d4e :: the leak is back since the pool change
 *
 *     ## Not examined
 *     The generated client.
 *
 * Every list item, with any marker, at any depth, inside block quotes too, whose text starts with
 * a bracketed word is a finding or a decision, or the whole review is refused quoting its line: a
 * finding silently dropped would read as a clean review. Under a `Findings` heading every item is
 * one. A finding anywhere else (a paragraph, the second line of an item, under `Not examined`) is
 * refused as misplaced, and so is one in HTML, a comment included: a finding no one sees when the
 * review is rendered is refused, quoting its line, never skipped. Code (a fence, an indented block)
 * is quoted text, never a finding. Pure: the caller reads the bytes and wraps a refusal in a
 * `ClearanceError`.
 */

export type FindingsMd = Readonly<{
  candidates: Candidate[];
  decisions: Decision[];
  /** present when the review has a Not examined section (then never empty) */
  notExamined?: string[];
  /** what a `Verdict:` line declares; the rules check it against the derived verdict */
  verdict?: Verdict;
}>;

export type FindingsMdError = Readonly<{
  code: 'findings-md-invalid';
  message: string;
  /** 1-based line of the offending text */
  line?: number;
  /** byte offset, for input that is not text */
  offset?: number;
}>;

export type FindingsMdOptions = Vocabulary;

type Section = Readonly<{
  kind: 'findings' | 'not-examined' | 'other';
  level: number;
  /** 0-based line of its heading */
  start: number;
  entries: string[];
}>;
type Refused = Readonly<{ line: number; message: string }>;

const FINDINGS = /^findings:?$/i;
const NOT_EXAMINED = /^not examined:?$/i;
// `- x` then `2. [high] …` on the next line: an ordered item that does not start at 1 cannot
// interrupt a paragraph, so CommonMark reads it as more text of `x`
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,9}[.)])\s+/;

type Reading = {
  readonly v: Vocabulary;
  readonly lines: ReadonlyArray<string>;
  readonly candidates: Candidate[];
  readonly decisions: Decision[];
  readonly notExamined: Section[];
  readonly verdicts: Array<{ verdict: Verdict; line: number }>;
};

const quoted = (r: Reading, line: number): string => JSON.stringify((r.lines[line] ?? '').trim());

const notAFinding = (r: Reading, line: number, why: string): Refused => ({
  line,
  message: `findings line ${line + 1} is not a finding (${why}): ${quoted(r, line)}; ${EXPECTED}`,
});

const misplaced = (r: Reading, line: number, where: string): Refused => ({
  line,
  message: `findings line ${line + 1} is a finding ${where}: ${quoted(r, line)}; give each finding its own list item, above any Not examined heading`,
});

/** The `Verdict:` lines of rendered text. */
const readVerdicts = (r: Reading, inline: Inline, start: number): Refused | undefined => {
  for (const [i, text] of inline.plain.split('\n').entries()) {
    const declared = declaredVerdictOf(text);
    if (declared === undefined) continue;
    if ('unknown' in declared) {
      return {
        line: start + i,
        message: `findings line ${start + i + 1} declares a verdict clearance cannot check: ${quoted(r, start + i)}; say Verdict: ${VERDICT_WORDS}, or leave the line out`,
      };
    }
    r.verdicts.push({ verdict: declared.verdict, line: start + i });
  }
  return undefined;
};

/** Lines past an item's first may not start a finding: it would be swallowed as text. */
const checkLines = (
  r: Reading,
  inline: Inline,
  start: number,
  from: number,
  where: string,
): Refused | undefined => {
  const lines = inline.source.split('\n');
  for (let i = from; i < lines.length; i++) {
    if (isFindingShaped((lines[i] ?? '').replace(LIST_MARKER, ''), r.v))
      return misplaced(r, start + i, where);
  }
  return undefined;
};

const typedText = (inline: Inline): string =>
  inline.source
    .split('\n')
    .map((l) => l.trim())
    .join(' ')
    .trim();

/** The text a list item starts with: its first paragraph or heading, through any block quote. */
const leadOf = (item: Block): Block | undefined => {
  const first = item.children[0];
  if (first === undefined) return undefined;
  if (first.inline !== undefined) return first;
  return first.kind === 'blockquote' ? leadOf(first) : undefined;
};

const listItem = (
  r: Reading,
  item: Block,
  section: Section,
  skip: Block | undefined,
): Refused | undefined => {
  const lead = leadOf(item);
  const inline = lead?.inline;
  if (lead === undefined || inline === undefined) {
    // what the item holds instead of text (HTML, code) is read first: a finding hidden there is named
    const inside = container(r, item.children, section, skip);
    return inside !== undefined || section.kind !== 'findings'
      ? inside
      : notAFinding(
          r,
          item.start,
          'under Findings every list item is a finding or a decision, and this one has no text',
        );
  }
  const first = (inline.source.split('\n')[0] ?? '').trim();
  const hidden = inlineHtml(r, inline, lead.start);
  if (hidden !== undefined) return hidden;
  if (section.kind === 'not-examined') {
    const shaped = checkLines(r, inline, lead.start, 0, 'under Not examined');
    if (shaped !== undefined) return shaped;
    section.entries.push(typedText(inline));
  } else {
    const looksLike = startsLikeFinding(inline.plain);
    const beyond = checkLines(r, inline, lead.start, 1, 'on the second line of a list item');
    if (beyond !== undefined) return beyond;
    if (looksLike) {
      const parsed = parseReviewItem(typedText(inline), r.v);
      if (E.isLeft(parsed)) return notAFinding(r, lead.start, parsed.left);
      if (parsed.right.kind === 'finding') r.candidates.push(parsed.right.candidate);
      else r.decisions.push(parsed.right.decision);
    } else if (section.kind === 'findings') {
      return notAFinding(r, lead.start, 'under Findings every list item is a finding or a decision');
    } else if (lacksSeverity(first)) {
      return notAFinding(r, lead.start, 'it has no [severity] in front');
    } else {
      const verdict = readVerdicts(r, inline, lead.start);
      if (verdict !== undefined) return verdict;
    }
  }
  return container(r, item.children, section, lead);
};

// Where text in HTML can start: a line, or what follows a tag's end or a comment's delimiter
const HTML_PIECES = /(<!--|-->|>)/;

/**
 * The first finding- or decision-shaped text in a piece of HTML, by its line within `literal`:
 * anywhere a line, a tag or a comment delimiter leaves off, and whether a comment hides it.
 */
const findingInHtml = (
  literal: string,
  v: Vocabulary,
): Readonly<{ line: number; inComment: boolean }> | undefined => {
  let inComment = false;
  for (const [line, text] of literal.split('\n').entries()) {
    for (const piece of text.split(HTML_PIECES)) {
      if (piece === '<!--') inComment = true;
      else if (piece === '-->') inComment = false;
      else if (piece !== '>' && looksLikeFinding(piece.replace(LIST_MARKER, ''), v))
        return { line, inComment };
    }
  }
  return undefined;
};

/**
 * A finding in HTML is refused, never skipped. In a comment no one sees it when the review is
 * rendered, and it would vanish from the record as silently as from the page; in an HTML block
 * (which runs to the next blank line) Markdown is not read, but its text is shown, so a finding
 * written there would be lost too.
 */
const inHtml = (r: Reading, literal: string, start: number, inline: boolean): Refused | undefined => {
  const found = findingInHtml(literal, r.v);
  if (found === undefined) return undefined;
  const where = found.inComment
    ? 'inside an HTML comment, which no one sees when the review is rendered (take it out of the comment, or delete it)'
    : inline
      ? 'inside inline HTML, which is not read as Markdown'
      : 'inside an HTML block, where Markdown is not read (leave a blank line after the HTML tag)';
  return misplaced(r, start + found.line, where);
};

/** The inline HTML of text (a comment in a line, a tag): refused where it holds a finding. */
const inlineHtml = (r: Reading, inline: Inline, start: number): Refused | undefined => {
  for (const html of inline.html) {
    const refused = inHtml(r, html.literal, start + html.line, true);
    if (refused !== undefined) return refused;
  }
  return undefined;
};

/** Text that is no list item's lead: a paragraph or a table cell. */
const looseText = (r: Reading, block: Block, inline: Inline, section: Section): Refused | undefined => {
  const where = section.kind === 'not-examined' ? 'under Not examined' : 'outside a list item';
  const shaped = inlineHtml(r, inline, block.start) ?? checkLines(r, inline, block.start, 0, where);
  if (shaped !== undefined) return shaped;
  const bare = inline.source.split('\n').findIndex(lacksSeverity);
  if (bare !== -1)
    return notAFinding(r, block.start + bare, 'it has no [severity] in front, and it is not a list item');
  if (section.kind === 'not-examined') {
    const text = typedText(inline);
    if (text !== '') section.entries.push(text);
    return undefined;
  }
  return readVerdicts(r, inline, block.start);
};

const heading = (r: Reading, block: Block, section: Section, inherited: Section): Section | Refused => {
  const text = (block.inline?.plain ?? '').trim();
  if (block.inline !== undefined) {
    const declared = readVerdicts(r, block.inline, block.start);
    if (declared !== undefined) return declared;
    if (isFindingShaped(block.inline.source, r.v)) return misplaced(r, block.start, 'in a heading');
    const hidden = inlineHtml(r, block.inline, block.start);
    if (hidden !== undefined) return hidden;
  }
  if (FINDINGS.test(text)) return { kind: 'findings', level: block.level, start: block.start, entries: [] };
  if (NOT_EXAMINED.test(text)) {
    const opened: Section = { kind: 'not-examined', level: block.level, start: block.start, entries: [] };
    r.notExamined.push(opened);
    return opened;
  }
  // a deeper heading stays inside the section; one as high or higher ends it
  return section !== inherited && block.level <= section.level ? inherited : section;
};

/** Read a container's blocks in order; headings open and close sections within it. */
const container = (
  r: Reading,
  blocks: ReadonlyArray<Block>,
  inherited: Section,
  skip: Block | undefined,
): Refused | undefined => {
  let section = inherited;
  for (const block of blocks) {
    if (block === skip) continue;
    let refused: Refused | undefined;
    if (block.kind === 'heading') {
      const next = heading(r, block, section, inherited);
      if ('message' in next) return next;
      section = next;
    } else if (block.kind === 'list_item') {
      refused = listItem(r, block, section, skip);
    } else if (block.inline !== undefined) {
      refused = looseText(r, block, block.inline, section);
    } else if (block.kind === 'html_block') {
      refused = inHtml(r, block.literal ?? '', block.start, false);
    } else if (block.literal !== undefined) {
      if (section.kind === 'not-examined' && block.literal.trim() !== '')
        section.entries.push(block.literal.trim());
    } else {
      refused = container(r, block.children, section, skip);
    }
    if (refused !== undefined) return refused;
  }
  return undefined;
};

const invalid = (message: string, at: { line?: number; offset?: number }): FindingsMdError => ({
  code: 'findings-md-invalid',
  message,
  ...at,
});

/** Parse a prose review: findings, decisions, what was not examined, and a declared verdict. */
export const parseFindingsMarkdown = (
  input: string | Uint8Array,
  options: FindingsMdOptions,
): E.Either<FindingsMdError, FindingsMd> => {
  const text = reviewTextOf(input);
  if (E.isLeft(text)) {
    const { message, offset } = text.left;
    return E.left(invalid(`the review ${message}`, offset === undefined ? {} : { offset }));
  }
  const { blocks, lines } = parseMarkdown(text.right);
  const r: Reading = { v: options, lines, candidates: [], decisions: [], notExamined: [], verdicts: [] };
  const refused = container(r, blocks, { kind: 'other', level: 0, start: 0, entries: [] }, undefined);
  if (refused !== undefined) return E.left(invalid(refused.message, { line: refused.line + 1 }));

  const empty = r.notExamined.find((s) => s.entries.length === 0);
  if (empty !== undefined) {
    return E.left(
      invalid(
        `findings line ${empty.start + 1} is a Not examined heading with nothing under it: ${quoted(r, empty.start)}; list what was not examined and why (a list or a paragraph), or remove the heading`,
        { line: empty.start + 1 },
      ),
    );
  }
  const [first, ...others] = r.verdicts;
  const disagreeing = others.find((o) => o.verdict !== first?.verdict);
  if (first !== undefined && disagreeing !== undefined) {
    return E.left(
      invalid(
        `findings lines ${first.line + 1} and ${disagreeing.line + 1} declare different verdicts (${first.verdict}, ${disagreeing.verdict}): keep one`,
        { line: disagreeing.line + 1 },
      ),
    );
  }
  return E.right({
    candidates: r.candidates,
    decisions: r.decisions,
    ...(r.notExamined.length === 0 ? {} : { notExamined: r.notExamined.flatMap((s) => s.entries) }),
    ...(first === undefined ? {} : { verdict: first.verdict }),
  });
};
