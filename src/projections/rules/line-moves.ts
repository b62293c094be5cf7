import type { LineMove, RevisionCapturedData } from '../../events/event.js';
import { type Findings, lookUp, placedAt, putFinding } from '../finding-index.js';
import type { Finding, RunState } from '../state.js';
import { touchedBy } from './capture.js';
import { type Check, fail, ok, shortId } from './rule-answer.js';

/**
 * A finding's line follows its code. A capture from git maps each open finding's line through the
 * diff between the input the last round reviewed and the new one (`src/revision/line-moves.ts`)
 * and carries the result as `moves`; the round that reviews that input applies them, as it applies
 * the capture's renames. A finding keeps where it was cited (`cited`) and its id; one whose line
 * was deleted or rewritten is `outdated`, and stays open: its file was touched, so the round owes
 * it a decision as it would anyway.
 */

const isLine = (n: number): boolean => Number.isInteger(n) && n >= 1;

/** The file a finding is in once the capture's renames apply (the last of two from one file wins). */
const fileAfter = (capture: RevisionCapturedData, file: string): string =>
  capture.renames.findLast((r) => r.from === file)?.to ?? file;

/**
 * What the state can say of a capture's moves: each names an open finding of the run, once, that
 * cites a line (a section does not move), in a file the capture touched, at the line it stands at
 * now; and both lines are integers >= 1.
 */
export const movesFollowOpenFindings = (state: RunState, capture: RevisionCapturedData): Check => {
  const moves = capture.moves ?? [];
  if (moves.length === 0) return ok;
  const touched = touchedBy(capture);
  const seen = new Set<string>();
  for (const [i, move] of moves.entries()) {
    const at = ['moves', i];
    const invalid = (why: string) =>
      fail('invalid-move', `moves[${i}] moves finding ${shortId(move.id)}, ${why}`, at);
    if (!isLine(move.from) || !isLine(move.to))
      return fail(
        'invalid-line',
        `moves[${i}] moves a line from ${move.from} to ${move.to}: a line is an integer >= 1`,
        [...at, isLine(move.from) ? 'to' : 'from'],
      );
    const f = lookUp(state.findings, move.id);
    if (f === undefined)
      return fail(
        'unknown-finding',
        `moves[${i}] moves ${shortId(move.id)}, which is no finding of the run`,
        [...at, 'id'],
      );
    if (seen.has(move.id)) return invalid('a second time');
    seen.add(move.id);
    if (f.status !== 'open') return invalid(`which is ${f.status}: only an open finding's line is followed`);
    if (f.line === null) return invalid('which cites a section, not a line');
    if (!touched.has(fileAfter(capture, f.file)))
      return invalid(`but the capture did not touch its file ${JSON.stringify(f.file)}`);
    if (move.from !== f.line) return invalid(`from line ${move.from}, but it stands at line ${f.line}`);
  }
  return ok;
};

/** A finding where a move puts it: its line, `outdated` when the line is gone, where it was cited kept. */
export const followMove = (f: Finding, move: LineMove): Finding => {
  const moved = placedAt(f, f.file, move.to);
  return move.outdated === true && moved.outdated !== true ? { ...moved, outdated: true } : moved;
};

/** The findings once a capture's moves apply (after its renames: a move names the finding, not its file). */
export const followLines = (findings: Findings, capture: RevisionCapturedData): Findings => {
  let next = findings;
  for (const move of capture.moves ?? []) {
    const f = lookUp(next, move.id);
    if (f !== undefined) next = putFinding(next, followMove(f, move));
  }
  return next;
};

/**
 * A finding where the capture waiting for the next round puts it, for what a person reads before
 * that round is recorded: the input in front of them is the captured one. The state keeps each
 * finding where the last reviewed input had it until the round that reviews the capture applies it.
 */
export const placedByCapture = (capture: RevisionCapturedData | null, f: Finding): Finding => {
  if (capture === null) return f;
  const file = fileAfter(capture, f.file);
  const renamed = file === f.file ? f : placedAt(f, file, f.line);
  const move = capture.moves?.find((m) => m.id === f.id);
  return move === undefined ? renamed : followMove(renamed, move);
};
