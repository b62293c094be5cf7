import * as E from 'fp-ts/lib/Either.js';
import type { Candidate } from '../events/report.js';
import { type Heading, normalizeHeading, scanMarkdown } from './markdown.js';

/**
 * Findings written as prose, one a line:
 *
 *     - [major] src/a.ts:12 :: the handle leaks when the request is aborted
 *     - [low] `docs/guide.md § Install` :: the command needs sudo
 *
 *     ## Not examined
 *     - the generated client
 *
 * Pure: the caller reads the file and wraps a refusal in a `ClearanceError`.
 */

export type FindingsMd = Readonly<{ candidates: Candidate[]; notExamined: string[] }>;

export type FindingsMdError = Readonly<{ code: 'findings-md-invalid'; message: string; line: number }>;

const STARTS_LIKE_FINDING = /^\s*- \[/;
const FINDING = /^\s*- \[([^\]]*)\](.*)$/;
const SEPARATOR = /\s::(?:\s|$)/;
const LINE_CITATION = /^(.+):(\d+)$/;
const SECTION_CITATION = /^(.+?)\s+§\s+(.+)$/;
const LIST_ITEM = /^\s*[-*+]\s+(.*)$/;
const NOT_EXAMINED = /^not examined:?$/i;
const EXPECTED = 'expected "- [severity] path:line :: text" or "- [severity] path § Heading :: text"';

type Parsed<T> = E.Either<string, T>;

const unticked = (s: string): string =>
  s
    .trim()
    .replace(/^`(.*)`$/, '$1')
    .trim();

/** Split `<citation> :: <text>`; a backticked citation may itself contain ` :: `. */
const splitCitation = (rest: string): Parsed<{ cited: string; text: string }> => {
  const trimmed = rest.trim();
  let searchFrom = 0;
  if (trimmed.startsWith('`')) {
    const close = trimmed.indexOf('`', 1);
    if (close === -1) return E.left('its citation opens a backtick it never closes');
    searchFrom = close + 1;
  }
  const sep = SEPARATOR.exec(trimmed.slice(searchFrom));
  if (sep === null) return E.left('there is no " :: " between the citation and the text');
  const at = searchFrom + sep.index;
  const text = trimmed.slice(at + sep[0].length).trim();
  if (text === '') return E.left('there is no text after " :: "');
  return E.right({ cited: unticked(trimmed.slice(0, at)), text });
};

const locate = (cited: string): Parsed<Pick<Candidate, 'file' | 'line' | 'section'>> => {
  const section = SECTION_CITATION.exec(cited);
  if (section !== null) {
    return E.right({ file: unticked(section[1] ?? ''), section: normalizeHeading(section[2] ?? '') });
  }
  const located = LINE_CITATION.exec(cited);
  if (located === null) return E.left(`"${cited}" is neither path:line nor path § Heading`);
  const line = Number(located[2]);
  if (line < 1) return E.left(`"${cited}" cites line ${line}, but lines start at 1`);
  const file = unticked(located[1] ?? '');
  return file === '' ? E.left(`"${cited}" names no file`) : E.right({ file, line });
};

const parseFinding = (line: string): Parsed<Candidate> => {
  const m = FINDING.exec(line);
  if (m === null) return E.left('its severity has no closing "]"');
  const severity = (m[1] ?? '').trim();
  if (severity === '') return E.left('its severity is empty');
  const rest = m[2] ?? '';
  if (!/^\s/.test(rest)) return E.left('the severity is not followed by a space');
  const split = splitCitation(rest);
  if (E.isLeft(split)) return split;
  const where = locate(split.right.cited);
  if (E.isLeft(where)) return where;
  const { text } = split.right;
  return E.right({
    ...where.right,
    category: 'prose',
    summary: text,
    severity,
    confirmed: true,
    evidence: text,
  });
};

const refuse = (index: number, line: string, why: string): FindingsMdError => ({
  code: 'findings-md-invalid',
  message: `findings line ${index + 1} is not a finding (${why}): "${line.trim()}"; ${EXPECTED}`,
  line: index + 1,
});

/**
 * Parse prose findings. Any line that starts like a finding (`- [`) outside code fences and the
 * Not examined list must parse, or the whole review is refused: a finding silently dropped would
 * read as a clean review.
 */
export const parseFindingsMarkdown = (text: string): E.Either<FindingsMdError, FindingsMd> => {
  const { lines, headings, literal } = scanMarkdown(text);
  const headingAt = new Map<number, Heading>(headings.map((h) => [h.start, h]));
  const candidates: Candidate[] = [];
  const notExamined: string[] = [];
  let inNotExamined = false;
  // an indented line right after a Not examined item continues it (a wrapped item)
  let continuing = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (literal.has(i)) continue;
    const heading = headingAt.get(i);
    if (heading !== undefined) {
      inNotExamined = NOT_EXAMINED.test(heading.text);
      continuing = false;
      i = heading.end;
      continue;
    }
    if (inNotExamined) {
      const item = LIST_ITEM.exec(line);
      const wrapped: boolean = item === null && continuing && /^\s+\S/.test(line);
      if (item !== null) notExamined.push((item[1] ?? '').trim());
      else if (wrapped) notExamined.push(`${notExamined.pop() ?? ''} ${line.trim()}`);
      continuing = item !== null || wrapped;
      continue;
    }
    if (!STARTS_LIKE_FINDING.test(line)) continue;
    const finding = parseFinding(line);
    if (E.isLeft(finding)) return E.left(refuse(i, line, finding.left));
    candidates.push(finding.right);
  }
  return E.right({ candidates, notExamined: notExamined.filter((item) => item !== '') });
};
