import type { RoundFailure, RunState, RunStatus } from '../state.js';
import { type FindingView, findingsOf, findingView } from './findings.js';

export type StatusView = Readonly<{
  runId: string | null;
  status: RunStatus;
  policy: string | null;
  /** the last recorded round */
  round: number;
  maxRounds: number | null;
  /** the input the next round will review if captured, else the one the last round reviewed */
  inputSha: string | null;
  /** whether a revision is captured for the next round */
  captured: boolean;
  counts: Readonly<{
    open: number;
    openBlocking: number;
    fixed: number;
    withdrawn: number;
    suppressed: number;
  }>;
  findings: ReadonlyArray<FindingView>;
  /** failed attempts at collecting the next round's report, and the last of them */
  failedAttempts: number;
  lastFailure: RoundFailure | null;
}>;

export const statusOf = (state: RunState): StatusView => {
  const findings = findingsOf(state).map(findingView);
  const count = (pred: (f: FindingView) => boolean) => findings.filter(pred).length;
  return {
    runId: state.run?.runId ?? null,
    status: state.status,
    policy: state.run?.policy.name ?? null,
    round: state.round,
    maxRounds: state.run?.policy.maxRounds ?? null,
    inputSha: state.capture?.inputSha ?? state.reviewed?.inputSha ?? null,
    captured: state.capture !== null,
    counts: {
      open: count((f) => f.status === 'open'),
      openBlocking: count((f) => f.status === 'open' && f.blocking),
      fixed: count((f) => f.status === 'fixed'),
      withdrawn: count((f) => f.status === 'withdrawn'),
      suppressed: state.suppressed.length,
    },
    findings,
    failedAttempts: state.failedAttempts,
    lastFailure: state.lastFailure,
  };
};
