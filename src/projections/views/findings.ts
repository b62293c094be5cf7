import { citationOf } from '../citation.js';
import { findingsInOrder } from '../finding-index.js';
import type { Finding, FindingStatus, RunState } from '../state.js';
import { reopeningsOf, roundsOpenOf } from './finding-history.js';

export type FindingView = Readonly<{
  id: string;
  file: string;
  line: number | null;
  section: string | null;
  /** `file:line`, or `file § Section` for a document */
  citation: string;
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

/** How a finding shows on a screen, in the run `state` it belongs to. */
export const findingView = (f: Finding, state: RunState): FindingView => ({
  id: f.id,
  file: f.file,
  line: f.line,
  section: f.section,
  citation: citationOf(f),
  category: f.category,
  summary: f.summary,
  severity: f.severity,
  status: f.status,
  blocking: f.blocking,
  openedRound: f.openedRound,
  roundsOpen: roundsOpenOf(state, f),
  reopened: reopeningsOf(f),
});

/** Every finding of the run in the order it opened, optionally only those with one status. */
export const findingsOf = (state: RunState, status?: FindingStatus): ReadonlyArray<Finding> =>
  status === undefined ? findingsInOrder(state) : findingsInOrder(state).filter((f) => f.status === status);

export const openFindings = (state: RunState): ReadonlyArray<Finding> => findingsOf(state, 'open');

export const openBlockingFindings = (state: RunState): ReadonlyArray<Finding> =>
  openFindings(state).filter((f) => f.blocking);
