import type { Candidate, Decision, DecisionStatus } from '@clearance/fold/internal/events/report-types.js';
import { DECISION_STATUSES } from '@clearance/fold/internal/events/statuses.js';
import * as E from 'fp-ts/lib/Either.js';
import { normalizeHeading } from './markdown.js';

/**
 * One item of a prose review, as its author typed it (container markers already gone):
 *
 *     [major] src/a.ts:12 :: the handle leaks when the request is aborted
 *     **[low]** `docs/guide.md § Install` :: the command needs sudo
 *     [fixed] 827f9ded38b8 :: closed in a finally block
 *
 * A bracketed word that is one of the run's severities starts a finding, `[fixed]`, `[open]` or
 * `[withdrawn]` a decision on an earlier one; any other bracketed word is refused, never skipped.
 */

export type ReviewItem =
  | Readonly<{ kind: 'finding'; candidate: Candidate }>
  | Readonly<{ kind: 'decision'; decision: Decision }>;

/** The words a bracket may hold: the run policy's severities, and the decision statuses. */
export type Vocabulary = Readonly<{ severities: ReadonlyArray<string> }>;

type Parsed<T> = E.Either<string, T>;

export const EXPECTED =
  'a finding is "- [severity] path:line :: text" or "- [severity] path § Heading :: text", a decision "- [fixed|open|withdrawn] <finding id> :: evidence"';

// GitHub's task-list box: `- [ ] …`, `- [x] …`, a box and not a bracketed word
const TASK_BOX = /^\[[ xX]\][ \t]+/;
const BRACKETED = /^(?<open>[*_]{1,3})?\\?\[(?<word>[^\]]*)\](?<close>[*_]{1,3})?(?<rest>[\s\S]*)$/;
const OPENS_BRACKET = /^[*_~]*\\?\[/;
const SEPARATOR = /\s::(?:\s|$)/;
const LINE_CITATION = /^(.+):(\d+)$/;
const SECTION_CITATION = /^(.+?)\s+§\s+(.+)$/;
const HEX = /^[0-9a-f]+$/i;
const WITHOUT_SEVERITY = /^`?[^\s`[\]]+`?:\d+`?\s+::\s|^`?\S[^`]*?\s§\s[^`]*`?\s+::\s/;

const bare = (word: string): string => word.replace(/\\/g, '').replace(/^[*_\s]+|[*_\s]+$/g, '');

const severityOf = (word: string, v: Vocabulary): string | undefined =>
  v.severities.find((s) => s.toLowerCase() === word.toLowerCase());

const decisionOf = (word: string): DecisionStatus | undefined =>
  DECISION_STATUSES.find((s) => s === word.toLowerCase());

/** Does rendered item text start like a finding: a bracketed word, once a task box is set aside? */
export const startsLikeFinding = (plain: string): boolean =>
  plain.trimStart().replace(TASK_BOX, '').trimStart().startsWith('[');

/**
 * Is this line a finding or a decision that is not where one belongs (a paragraph, the second line
 * of an item, the Not examined list)? A bracketed severity or decision, or a bracket before ` :: `.
 */
export const isFindingShaped = (line: string, v: Vocabulary): boolean => {
  const start = line.trimStart().replace(/^[*_~]+/, '');
  const m = /^\\?\[([^\]\n]*)\]/.exec(start);
  if (m === null) return false;
  const word = bare(m[1] ?? '');
  return severityOf(word, v) !== undefined || decisionOf(word) !== undefined || SEPARATOR.test(start);
};

/**
 * Shaped like a finding, well formed or not: a bracket opening on a severity or decision word, or
 * on anything before ` :: `, whether or not the bracket closes. Where findings cannot be (HTML, a
 * comment) even a broken one is someone's finding that would otherwise vanish unread.
 */
export const looksLikeFinding = (line: string, v: Vocabulary): boolean => {
  const start = line.trimStart().replace(/^[*_~]+/, '');
  const m = /^\\?\[\s*([^\]\s]*)/.exec(start);
  if (m === null) return false;
  const word = bare(m[1] ?? '');
  return severityOf(word, v) !== undefined || decisionOf(word) !== undefined || SEPARATOR.test(start);
};

/** `path:line :: text` with no bracket in front: a finding whose severity was left out. */
export const lacksSeverity = (line: string): boolean =>
  WITHOUT_SEVERITY.test(line.trim().replace(TASK_BOX, ''));

const unticked = (s: string): string =>
  s
    .trim()
    .replace(/^`(.*)`$/, '$1')
    .trim();

/** Split `<citation> :: <text>`; a backticked citation may itself contain ` :: `. */
const splitAtSeparator = (rest: string): Parsed<{ cited: string; text: string }> => {
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
  const digits = located[2] ?? '';
  const line = Number(digits);
  if (!Number.isSafeInteger(line))
    return E.left(`"${cited}" cites line ${digits}, which is not a safe integer`);
  if (line < 1) return E.left(`"${cited}" cites line ${line}, but lines start at 1`);
  const file = unticked(located[1] ?? '');
  return file === '' ? E.left(`"${cited}" names no file`) : E.right({ file, line });
};

const findingOf = (severity: string, rest: string): Parsed<ReviewItem> => {
  const split = splitAtSeparator(rest);
  if (E.isLeft(split)) return split;
  const where = locate(split.right.cited);
  if (E.isLeft(where)) return where;
  const { text } = split.right;
  const candidate = {
    ...where.right,
    category: 'prose',
    summary: text,
    severity,
    confirmed: true,
    evidence: text,
  };
  return E.right({ kind: 'finding', candidate });
};

const decisionFrom = (status: DecisionStatus, rest: string): Parsed<ReviewItem> => {
  const split = splitAtSeparator(rest);
  if (E.isLeft(split)) return split;
  const id = split.right.cited;
  if (!HEX.test(id)) {
    return E.left(
      `"${id}" is not a finding id (hex: the full id, or a unique prefix of at least 8 characters)`,
    );
  }
  return E.right({ kind: 'decision', decision: { id, status, evidence: split.right.text } });
};

/** Parse an item that starts like a finding: its typed text, lines joined. */
export const parseReviewItem = (source: string, v: Vocabulary): Parsed<ReviewItem> => {
  const typed = source.trim().replace(TASK_BOX, '');
  const m = BRACKETED.exec(typed);
  if (m?.groups === undefined) {
    return E.left(
      OPENS_BRACKET.test(typed)
        ? 'its bracketed word has no closing "]"'
        : 'its bracketed word is wrapped in markup clearance does not read; start the item with the bracket itself',
    );
  }
  const { open = '', close = '' } = m.groups;
  let rest = m.groups.rest ?? '';
  // `**[major] path:1 :: text**`: the emphasis wraps the whole item
  if (open !== '' && close === '' && rest.trimEnd().endsWith(open))
    rest = rest.trimEnd().slice(0, -open.length);
  const word = bare(m.groups.word ?? '');
  if (word === '') return E.left('its severity is empty');
  if (!/^\s/.test(rest)) return E.left(`[${word}] is not followed by a space`);
  const status = decisionOf(word);
  if (status !== undefined) return decisionFrom(status, rest);
  const severity = severityOf(word, v);
  if (severity !== undefined) return findingOf(severity, rest);
  return E.left(
    `[${word}] is neither a severity of this run's policy (${v.severities.join(', ')}) nor a decision (${DECISION_STATUSES.join(', ')})`,
  );
};
