import { citationOf } from '../citation.js';
import { findingsInOrder } from '../finding-index.js';
import { placedByCapture } from '../rules/line-moves.js';
import type { Finding, FindingStatus, Place, RunState } from '../state.js';
import { reopeningsOf, roundsOpenOf } from './finding-history.js';

export type FindingView = Readonly<{
  id: string;
  /** where it is now, in the input last captured */
  file: string;
  line: number | null;
  section: string | null;
  /** `file:line`, or `file § Section` for a document: where it is now */
  citation: string;
  /** where its reviewer cited it, when it stands elsewhere now (its code moved, or a verifier placed it) */
  cited?: Place;
  /** its cited line was deleted or rewritten since: it stays open until a round decides it */
  outdated?: true;
  /** the verifier who placed it where it opened, and why */
  correction?: Readonly<{ by: string; evidence: string }>;
  category: string;
  summary: string;
  severity: string;
  status: FindingStatus;
  blocking: boolean;
  openedRound: number;
  /** rounds it has been open, counting the round it opened in */
  roundsOpen: number;
  /** how many times it was reopened after a fix */
  reopened: number;
}>;

export { citationOf };

/**
 * A finding as a person reads it now: where the input captured for the next round has it, when one
 * is waiting (rules/line-moves.ts), else where the last reviewed input has it.
 */
export const findingNow = (state: RunState, f: Finding): Finding => placedByCapture(state.capture, f);

/** Where it was cited, whether its line is gone, who placed it: only when there is something to say. */
export const placeRecordOf = (f: Finding): Pick<FindingView, 'cited' | 'outdated' | 'correction'> => ({
  ...(f.cited === undefined || (f.cited.file === f.file && f.cited.line === f.line)
    ? {}
    : { cited: f.cited }),
  ...(f.outdated === true ? { outdated: true } : {}),
  ...(f.correction === undefined ? {} : { correction: f.correction }),
});

/** How a finding shows on a screen, in the run `state` it belongs to: where it is now. */
export const findingView = (found: Finding, state: RunState): FindingView => {
  const f = findingNow(state, found);
  return {
    id: f.id,
    file: f.file,
    line: f.line,
    section: f.section,
    citation: citationOf(f),
    ...placeRecordOf(f),
    category: f.category,
    summary: f.summary,
    severity: f.severity,
    status: f.status,
    blocking: f.blocking,
    openedRound: f.openedRound,
    roundsOpen: roundsOpenOf(state, f),
    reopened: reopeningsOf(f),
  };
};

/** Every finding of the run in the order it opened, optionally only those with one status. */
export const findingsOf = (state: RunState, status?: FindingStatus): ReadonlyArray<Finding> =>
  status === undefined ? findingsInOrder(state) : findingsInOrder(state).filter((f) => f.status === status);

export const openFindings = (state: RunState): ReadonlyArray<Finding> => findingsOf(state, 'open');

export const openBlockingFindings = (state: RunState): ReadonlyArray<Finding> =>
  openFindings(state).filter((f) => f.blocking);
