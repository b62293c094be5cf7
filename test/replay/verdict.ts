import { canonicalJson, findingsInOrder, maxRoundsOf, type RunState, toArray } from '../../src/index.js';
import { outcomeReason } from '../../src/render/outcome-reason.js';

/**
 * The verdict of a run, in a shape that never changes: what a frozen log must still fold to, byte
 * for byte, whatever today's state carries besides. A change that breaks it is a schema change.
 */
export const verdictOf = (state: RunState): string =>
  `${canonicalJson({
    status: state.status,
    round: state.round,
    reviewedInputSha: state.reviewed?.inputSha ?? null,
    capturedInputSha: state.capture?.inputSha ?? null,
    findings: findingsInOrder(state).map((f) => ({
      id: f.id,
      file: f.file,
      line: f.line,
      section: f.section,
      severity: f.severity,
      status: f.status,
      blocking: f.blocking,
      openedRound: f.openedRound,
    })),
    suppressed: toArray(state.suppressed).map((s) => ({ id: s.id, round: s.round, reason: s.reason })),
  })}\n`;

/**
 * What the lifecycle events (stages, budgets, round results, rulings, extensions) folded to: the
 * second half of a frozen log's verdict, for logs written since those events exist. Same promise
 * as `verdictOf`: its shape never changes, and a log that folds differently is a schema change.
 */
export const lifecycleOf = (state: RunState): string =>
  `${canonicalJson({
    cap: maxRoundsOf(state),
    // the reason as every view says it (the state keeps the particulars it is said from)
    outcomes: toArray(state.outcomes).map((o) => ({
      round: o.round,
      result: o.result,
      reason: outcomeReason(o),
    })),
    failedAttempts: state.failedAttempts,
    stagesOfNextRound: {
      finished: state.stages.finished,
      running: state.stages.running,
      failures: state.stages.failures,
    },
    spent: state.spent,
    costs: toArray(state.costs).map((c) => ({
      round: c.round,
      stage: c.stage,
      runner: c.runner,
      outcome: c.outcome,
      cost: c.cost,
    })),
    rulings: toArray(state.rulings).map((r) => ({
      round: r.round,
      findingId: r.findingId,
      status: r.status,
      why: r.why,
      by: r.by,
    })),
    extensions: toArray(state.extensions).map((x) => ({
      round: x.round,
      rounds: x.rounds,
      why: x.why,
      by: x.by,
    })),
    convergedBy: state.convergedBy === null ? null : { by: state.convergedBy.by, why: state.convergedBy.why },
  })}\n`;
