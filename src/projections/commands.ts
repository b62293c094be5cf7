import type {
  AbsenceReason,
  CheckResult,
  ChecksRecordedData,
  CitationCheck,
  FailureReason,
  ReproductionOutcome,
  RevisionCapturedData,
  RoundEndResult,
  RoundResult,
  RulingSignature,
  RunOpenedData,
} from '../events/event.js';
import type { Cost } from '../events/policy.js';
import type { RoundReport } from '../events/report-types.js';

/** A reviewer who handed in nothing usable for the round in progress, and why. */
export type Missing = Readonly<{ reviewer: string; reason: AbsenceReason; detail: string }>;

export type DecideContext = Readonly<{
  /** the revision this report reviewed, when it has not been captured yet: decided as one step */
  capture?: RevisionCapturedData;
  /** the CI checks of that revision, when they have not been recorded yet: decided in the same step */
  checks?: ChecksRecordedData;
  /** how each candidate's citation resolved at the captured revision (see `src/revision`) */
  citations?: ReadonlyArray<CitationCheck>;
  /** `partial` when the budget ran out or a reviewer handed in nothing (default `complete`) */
  result?: RoundResult;
}>;

/** A person's ruling on an open finding, named by its id or a unique prefix of 8+ hex characters. */
export type FindingRuling = Readonly<{
  finding: string;
  status: 'fixed' | 'withdrawn';
  why: string;
  by: string;
  /** under a policy that pins signers: the signature over this ruling at this place of the log */
  signature?: RulingSignature;
}>;

/**
 * Every intent that puts events on a run's log, one case each: what a driver, a store or the
 * demo asks for. `decideCommand` turns one into its events against the run's state: an event for
 * the round in progress takes its round, its input and full finding ids from that state, never
 * from the caller.
 */
export type Command =
  /** a new run: its `run.opened`, and round 1's capture when given (its `round` is 1) */
  | Readonly<{ kind: 'open'; opened: RunOpenedData; capture?: RevisionCapturedData }>
  /** what the next round reviews */
  | Readonly<{ kind: 'capture'; capture: Omit<RevisionCapturedData, 'round'> }>
  /** a round report, with the capture and checks it reviewed when not yet recorded */
  | Readonly<{ kind: 'record'; report: RoundReport; context?: DecideContext }>
  /** one reviewer's report for the round in progress; `reviewer` absent means anonymous */
  | Readonly<{ kind: 'contribute'; report: RoundReport; reviewer?: string | undefined }>
  /** reviewers who handed in nothing usable for the round in progress */
  | Readonly<{ kind: 'absent'; missing: ReadonlyArray<Missing> }>
  /** close the round in progress from its contributions, the unheard recorded absent */
  | Readonly<{ kind: 'merge'; missing?: ReadonlyArray<Missing> }>
  /** a wait for the round in progress's report that failed */
  | Readonly<{ kind: 'fail-round'; runId: string; reason: FailureReason; detail: string }>
  /** the CI checks of the input captured for the round in progress */
  | Readonly<{ kind: 'record-checks'; checks: ReadonlyArray<CheckResult> }>
  | Readonly<{
      kind: 'start-stage';
      stage: Readonly<{ stage: string; commands?: ReadonlyArray<string>; estimate?: Cost }>;
    }>
  | Readonly<{
      kind: 'finish-stage';
      stage: Readonly<{ stage: string; outputSha: string; cost?: Cost; runner: string }>;
    }>
  | Readonly<{
      kind: 'fail-stage';
      stage: Readonly<{ stage: string; reason: string; cost?: Cost; runner: string }>;
    }>
  /** the round in progress ends without a complete report */
  | Readonly<{ kind: 'end-round'; end: Readonly<{ result: RoundEndResult; reason: string }> }>
  /** a person closes an open finding (named by its id or a unique prefix) */
  | Readonly<{ kind: 'rule'; ruling: FindingRuling }>
  /** a person gives the run more rounds */
  | Readonly<{
      kind: 'extend';
      extension: Readonly<{ rounds: number; why: string; by: string; signature?: RulingSignature }>;
    }>
  /** what a finding's reproduction did when re-run on the input captured for the round in progress */
  /** the author disputes an open finding (named by its id or a unique prefix), for the round in progress */
  | Readonly<{ kind: 'dispute'; finding: string; reason: string }>
  | Readonly<{
      kind: 'reproduce';
      finding: string;
      outcome: ReproductionOutcome;
      outputSha?: string | undefined;
    }>;

export type CommandKind = Command['kind'];
