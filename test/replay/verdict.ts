import { canonicalJson, type RunState, toArray } from '../../src/index.js';

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
    findings: Object.values(state.findings).map((f) => ({
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
