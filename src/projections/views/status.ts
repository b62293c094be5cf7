import type { Cost } from '../../events/policy.js';
import { panelOf, panelOfNextRound } from '../rules/contribution.js';
import {
  isFinal,
  maxRoundsOf,
  type Panel,
  type RoundFailure,
  type RunState,
  type RunStatus,
  type Stall,
} from '../state.js';
import { toArray } from '../vec.js';
import { type FindingView, findingsOf, findingView } from './findings.js';
import { type BlockedReason, blockedReasonOf } from './stall.js';
import { type RoundRow, roundRowsOf, type SameInput, sameInputOf, type Trend, trendOf } from './trend.js';

export type StatusView = Readonly<{
  runId: string | null;
  status: RunStatus;
  /** why a blocked run is blocked: `cap` (its last round ended) or `stalled` (early); null otherwise */
  blockedReason: BlockedReason | null;
  /** while stalled: the round that stalled it, and each finding that did, with why */
  stall: Stall | null;
  policy: string | null;
  /** the last round that ended */
  round: number;
  /** the cap in force: the policy's, plus any rounds a person added */
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
    /** candidates deferred to a follow-up (a severity past its untilRound, or new outside the fix) */
    deferred: number;
  }>;
  /** rounds that reviewed unchanged input as a recorded choice, and how many the policy allows */
  sameInput: SameInput;
  findings: ReadonlyArray<FindingView>;
  /** failed attempts at collecting the next round's report, and the last of them */
  failedAttempts: number;
  lastFailure: RoundFailure | null;
  /** the round in progress: `queued` (its input captured, no stage started) or `running`; null when none is */
  inProgress: Readonly<{
    round: number;
    phase: 'queued' | 'running';
    finished: ReadonlyArray<string>;
    running: string | null;
  }> | null;
  /** every round that is done: how it ended, what it did to the findings, what it spent */
  rounds: ReadonlyArray<RoundRow>;
  /** how the loop is going, from the blocking findings open after each round (advisory: never the verdict) */
  trend: Trend | null;
  spent: Cost;
  /** each round merged from contributions: who reviewed it, and who was absent and why */
  panels: ReadonlyArray<Panel>;
  /** the round in progress, as far as it got: each contribution handed in so far, who was recorded absent and why */
  contributions: Panel;
}>;

const inProgressOf = (state: RunState): StatusView['inProgress'] => {
  if (state.run === null || isFinal(state.status) || state.capture === null) return null;
  const { finished, running, failures } = state.stages;
  const started = finished.length > 0 || running !== null || Object.keys(failures).length > 0;
  return { round: state.round + 1, phase: started ? 'running' : 'queued', finished, running };
};

export const statusOf = (state: RunState): StatusView => {
  const findings = findingsOf(state).map((f) => findingView(f, state));
  const count = (pred: (f: FindingView) => boolean) => findings.filter(pred).length;
  const next = panelOfNextRound(state);
  return {
    runId: state.run?.runId ?? null,
    status: state.status,
    blockedReason: blockedReasonOf(state),
    stall: state.status === 'blocked' ? state.stall : null,
    policy: state.run?.policy.name ?? null,
    round: state.round,
    maxRounds: state.run === null ? null : maxRoundsOf(state),
    inputSha: state.capture?.inputSha ?? state.reviewed?.inputSha ?? null,
    captured: state.capture !== null,
    counts: {
      open: count((f) => f.status === 'open'),
      openBlocking: count((f) => f.status === 'open' && f.blocking),
      fixed: count((f) => f.status === 'fixed'),
      withdrawn: count((f) => f.status === 'withdrawn'),
      suppressed: state.suppressed.size,
      deferred: state.deferred.size,
    },
    sameInput: sameInputOf(state),
    findings,
    failedAttempts: state.failedAttempts,
    lastFailure: state.lastFailure,
    inProgress: inProgressOf(state),
    rounds: roundRowsOf(state),
    trend: trendOf(toArray(state.outcomes).map((o) => o.tally)),
    spent: state.spent,
    panels: toArray(state.panels),
    contributions: panelOf(state.round + 1, next.contributions, next.absent),
  };
};
