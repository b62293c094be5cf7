import type { FailureReason, RevisionCapturedData, RunOpenedData } from '../events/event.js';
import type { Policy } from '../events/policy.js';

export type RunStatus = 'unopened' | 'open' | 'converged' | 'blocked';
export type FindingStatus = 'open' | 'fixed' | 'withdrawn';

/** What happened to a finding in one round: born, ruled on, or carried forward untouched. */
export type FindingStep = Readonly<{
  round: number;
  how: 'opened' | 'decided' | 'carried';
  status: FindingStatus;
  evidence?: string;
}>;

export type Finding = Readonly<{
  id: string;
  file: string;
  /** the cited line, or null when the finding cites a section of a document */
  line: number | null;
  section: string | null;
  category: string;
  summary: string;
  severity: string;
  evidence: string;
  blocking: boolean;
  status: FindingStatus;
  openedRound: number;
  /** one step per round since it opened, oldest first */
  history: ReadonlyArray<FindingStep>;
}>;

/** A confirmed candidate the policy did not admit: kept on the record, never silently dropped. */
export type Suppressed = Readonly<{
  id: string;
  round: number;
  file: string;
  line: number | null;
  section: string | null;
  severity: string;
  summary: string;
  reason: 'late' | 'cap';
}>;

export type RoundFailure = Readonly<{ round: number; reason: FailureReason; detail: string }>;

export type Run = Readonly<Pick<RunOpenedData, 'runId' | 'policy' | 'subject' | 'consent'>>;

export type RunState = Readonly<{
  status: RunStatus;
  /** null until `run.opened` */
  run: Run | null;
  /** the last recorded round (0 before any) */
  round: number;
  /** the latest capture for round `round + 1`, if any */
  capture: RevisionCapturedData | null;
  /** the capture the last recorded round reviewed */
  reviewed: RevisionCapturedData | null;
  /** every finding ever admitted, keyed by id, in the order they opened */
  findings: Readonly<Record<string, Finding>>;
  /** how many findings of each severity were admitted over the run */
  admitted: Readonly<Record<string, number>>;
  suppressed: ReadonlyArray<Suppressed>;
  /** failed attempts at collecting the next round's report (the trail keeps each one) */
  failedAttempts: number;
  lastFailure: RoundFailure | null;
}>;

export const initialState: RunState = Object.freeze({
  status: 'unopened',
  run: null,
  round: 0,
  capture: null,
  reviewed: null,
  findings: Object.freeze({}),
  admitted: Object.freeze({}),
  suppressed: Object.freeze([]),
  failedAttempts: 0,
  lastFailure: null,
});

export const isFinal = (status: RunStatus): boolean => status === 'converged' || status === 'blocked';

export const policyOf = (state: RunState): Policy | null => state.run?.policy ?? null;
