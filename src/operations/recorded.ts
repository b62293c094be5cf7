import { findingOf } from '@clearance/fold/internal/projections/finding-index.js';
import type { RunState } from '@clearance/fold/internal/projections/state.js';
import { last } from '@clearance/fold/internal/projections/vec.js';
import { citationOf } from '@clearance/fold/internal/projections/views/findings.js';
import { nextMove } from '@clearance/fold/internal/projections/views/next.js';
import { trailNote } from '@clearance/fold/internal/render/event-notes.js';
import { outcomeReason } from '@clearance/fold/internal/render/outcome-reason.js';
import type { AppendResult } from '../store/append.js';
import type { RecordOutput, ResultOf } from './schemas/results.js';

/** What `record` (and `collect`) answer after a round ended, however it ended. */
export type RecordResult = ResultOf<typeof RecordOutput>;

/** A finding a round opened, as `record` says it: enough to read without asking `findings`. */
export type OpenedFinding = RecordResult['openedFindings'][number];

/** A final run's why and what can still happen, as `next` says them; null while the run is open. */
const finalOf = (state: RunState): RecordResult['final'] => {
  const move = nextMove(state);
  return move.action === 'stop' ? { why: move.why, next: move.next } : null;
};

/** The result of an append that ended a round, read off the state and trail the append made. */
export const recordResultOf = (runId: string, appended: AppendResult): RecordResult => {
  const { state, trail } = appended.folded;
  const entry = trail[trail.length - 1];
  const event = appended.appended[appended.appended.length - 1];
  const outcome = last(state.outcomes);
  const ended = outcome !== undefined && outcome.round === state.round ? outcome : undefined;
  const opened = entry?.opened ?? [];
  return {
    runId,
    round: state.round,
    result: ended?.result ?? null,
    reason: ended === undefined ? null : outcomeReason(ended),
    status: state.status,
    seq: appended.appended[appended.appended.length - 1]?.seq ?? null,
    opened,
    openedFindings: opened.flatMap((id) => {
      const f = findingOf(state, id);
      return f === undefined
        ? []
        : [{ id, severity: f.severity, citation: citationOf(f), summary: f.summary }];
    }),
    changed: entry?.changed ?? [],
    suppressed: entry?.suppressed ?? [],
    deferred: entry?.deferred ?? [],
    refutedBefore: (entry?.refuted ?? []).flatMap((r) =>
      r.before === undefined
        ? []
        : [
            {
              id: r.id,
              severity: r.severity,
              citation: citationOf(r),
              summary: r.summary,
              before: r.before,
              evidence: r.evidence,
            },
          ],
    ),
    disputesRuled: (entry?.disputesRuled ?? []).map((d) => ({ id: d.id, status: d.ruling.status })),
    note:
      appended.alreadyRecorded || entry === undefined || event === undefined
        ? null
        : trailNote(event, entry, state.run?.policy),
    repairedTail: appended.repairedTail,
    alreadyRecorded: appended.alreadyRecorded,
    final: finalOf(state),
  };
};
