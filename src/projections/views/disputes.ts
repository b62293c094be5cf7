import { citationOf } from '../citation.js';
import { findingsInOrder, lookUp } from '../finding-index.js';
import type { DisputeRuling, Finding, FindingStatus, RunState } from '../state.js';

/** A dispute as the screens show it: the finding it is about, the author's reason, and its ruling. */
export type DisputeView = Readonly<{
  findingId: string;
  citation: string;
  severity: string;
  summary: string;
  blocking: boolean;
  /** the finding's status now */
  findingStatus: FindingStatus;
  /** the round in progress when it was made */
  round: number;
  reason: string;
  /** how a round (or a person) ruled on it; null while it waits for the next recorded round */
  ruling: DisputeRuling | null;
}>;

const viewsOf = (f: Finding): DisputeView[] =>
  (f.disputes ?? []).map((d) => ({
    findingId: f.id,
    citation: citationOf(f),
    severity: f.severity,
    summary: f.summary,
    blocking: f.blocking,
    findingStatus: f.status,
    round: d.round,
    reason: d.reason,
    ruling: d.ruling,
  }));

/** Every dispute of the run, by finding in the order they opened, each finding's oldest first. */
export const disputesOf = (state: RunState): ReadonlyArray<DisputeView> =>
  findingsInOrder(state).flatMap(viewsOf);

/** The disputes the next recorded round must rule on, in the order they were made. */
export const pendingDisputesOf = (state: RunState): ReadonlyArray<DisputeView> =>
  state.disputed.flatMap((id) => {
    const f = lookUp(state.findings, id);
    return f === undefined ? [] : viewsOf(f).filter((d) => d.ruling === null);
  });
