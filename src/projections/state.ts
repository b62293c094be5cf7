import type {
  AbsenceReason,
  CheckResult,
  ChecksRecordedData,
  FailureReason,
  ReproductionOutcome,
  RevisionCapturedData,
  RunOpenedData,
} from '../events/event.js';
import type { Cost } from '../events/policy.js';
import type { RoundReport } from '../events/report-types.js';
import { emptyFindings, type Findings } from './finding-index.js';
import { emptyMap, type PMap } from './pmap.js';
import { emptyVec, type Vec } from './vec.js';

export type RunStatus = 'unopened' | 'open' | 'converged' | 'blocked';
export type FindingStatus = 'open' | 'fixed' | 'withdrawn';

/**
 * What happened to a finding in one round: born, decided, carried forward untouched, ruled on by
 * a person, or reopened (a fixed finding turned open again, status `open`, with the evidence).
 */
export type FindingStep = Readonly<{
  round: number;
  how: 'opened' | 'decided' | 'carried' | 'ruled' | 'reopened';
  status: FindingStatus;
  evidence?: string;
  /** for a ruling: the person who made it */
  by?: string;
}>;

export type Reproduction = Readonly<{ command: string; expected: string }>;

/** A place in the reviewed code: a file, and a line in it (null for a document's section). */
export type Place = Readonly<{ file: string; line: number | null }>;
/**
 * The author's answer to a finding (`finding.disputed`): it is wrong, and nothing was changed for
 * it, with one line of reasoning. The next recorded round rules on it: `open` upholds the finding,
 * `withdrawn` accepts the dispute (`fixed`, where the file was touched, makes it moot).
 */
export type Dispute = Readonly<{
  /** the round in progress when it was made: the round that was to rule on it */
  round: number;
  reason: string;
  /** how it was ruled on, by a round's decision or a person's ruling; null while pending */
  ruling: DisputeRuling | null;
}>;

export type DisputeRuling = Readonly<{
  round: number;
  status: FindingStatus;
  evidence: string;
  /** for a person's ruling past the cap: who made it */
  by?: string;
}>;

export type Finding = Readonly<{
  id: string;
  /** where it is now: its file after renames */
  file: string;
  /**
   * where it is now: the line its code stands at in the input the last round reviewed (its cited
   * line followed through each capture's diff), or null when the finding cites a section of a document
   */
  line: number | null;
  section: string | null;
  category: string;
  summary: string;
  severity: string;
  evidence: string;
  principle: string | null;
  reproduction: Reproduction | null;
  blocking: boolean;
  status: FindingStatus;
  openedRound: number;
  /**
   * what happened to it, oldest first: opened, decided, ruled. A round that left it open without
   * a decision is not stored here (that would copy every open finding every round): `historyOf`
   * derives those `carried` steps from the rounds that ended.
   */
  steps: Vec<FindingStep>;
  /** the reviewers whose contributions proposed it (set only for a round merged from contributions) */
  reviewers?: ReadonlyArray<string>;
  /** the other candidates the merge folded into it, with the reviewer of each */
  mergedFrom?: ReadonlyArray<MergedFrom>;
  /** the assessment it was admitted with, when it carried one (`confirmed: true` candidates have none) */
  verdict?: 'confirmed' | 'plausible';
  /**
   * where its reviewer cited it, kept once it stands elsewhere: its line followed its code, a
   * rename moved its file, or a verifier placed it (`correction`). Absent: it is where it was cited.
   */
  cited?: Place;
  /** its line was deleted or rewritten since it was cited: `line` is where its code was */
  outdated?: true;
  /** the verifier who placed it where it opened, not where its reviewer cited it, and their evidence */
  correction?: Readonly<{ by: string; evidence: string }>;
  /** the author's disputes of it, oldest first, each with its ruling (absent: never disputed) */
  disputes?: ReadonlyArray<Dispute>;
}>;

export type MergedFrom = Readonly<{
  id: string;
  reviewer: string;
  file: string;
  line: number | null;
  category: string;
}>;

/** A finding's reproduction, re-run on the input captured for a round, and what it did. */
export type Rerun = Readonly<{
  round: number;
  inputSha: string;
  findingId: string;
  outcome: ReproductionOutcome;
  /** the archived output, when the driver kept it */
  outputSha: string | null;
}>;

/** One reviewer's report for the round in progress. */
export type Contribution = Readonly<{
  round: number;
  /** the reviewer, null when anonymous: `expert` is the log's spelling, kept in the state and JSON */
  expert: string | null;
  reportSha: string;
  report: RoundReport;
}>;
/** A reviewer who handed in nothing usable by the deadline. */
export type Absentee = Readonly<{
  round: number;
  inputSha: string;
  /** the reviewer, in the log's spelling (`expert`) */
  expert: string;
  reason: AbsenceReason;
  detail: string;
}>;

/** One contribution to a round, as its panel lists it: who handed in what. */
export type PanelReport = Readonly<{
  reviewer: string;
  reportSha: string;
  candidates: number;
  decisions: number;
}>;

/** Who reviewed a round that was merged from contributions, and who was absent. */
export type Panel = Readonly<{
  round: number;
  /** the reviewers who handed in, sorted (`contributors` and `absent[].expert`: the JSON's spellings) */
  contributors: ReadonlyArray<string>;
  /** each contribution, in the order it was recorded */
  reports: ReadonlyArray<PanelReport>;
  absent: ReadonlyArray<Readonly<{ expert: string; reason: AbsenceReason; detail: string }>>;
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

/** What a candidate kept out of the findings holds of itself: where it points and what it says. */
export type HeldCandidate = Readonly<{
  id: string;
  round: number;
  file: string;
  line: number | null;
  section: string | null;
  category: string;
  severity: string;
  summary: string;
}>;

/**
 * A candidate held back for a follow-up: past its severity's `untilRound`, or (policy
 * `newOutsideFix: defer`) new in a file the last fix did not touch. Never a finding and never
 * blocking, it is kept whole (its evidence and who proposed it) so the follow-up can take it up.
 */
export type Deferred = HeldCandidate &
  Readonly<{
    evidence: string;
    /** the reviewers who proposed it (empty for an anonymous report) */
    reviewers: ReadonlyArray<string>;
    reason: 'until-round' | 'outside-fix';
  }>;

/**
 * A refuted candidate: dropped, never a finding, kept on the record with who refuted it and why.
 * Or a candidate refuted before (`before`): one with the id of a candidate refuted, or a finding
 * withdrawn, earlier in the run, offered again with the same evidence on a file no capture has
 * touched since (rules/refuted-before.ts). It is kept here, naming the earlier round and evidence.
 */
export type Refuted = HeldCandidate &
  Readonly<{
    /**
     * the verifiers who refuted it, or the reviewer whose own report marked it refuted; for one
     * refuted before, the reviewers who offered it again
     */
    by: ReadonlyArray<string>;
    /** why it was refuted; for one refuted before, the evidence of that earlier refutation or withdrawal */
    evidence: string;
    /** the candidate's own evidence, as it was offered */
    claim: string;
    /** set for a candidate refuted before: the round that refuted (or withdrew) it, and how */
    before?: Readonly<{ round: number; how: 'refuted' | 'withdrawn' }>;
  }>;

export type RoundFailure = Readonly<{ round: number; reason: FailureReason; detail: string }>;

/**
 * What one round did to the findings, counted as it ended: the trend a person reads (`status`,
 * `explain`, the chart of `report --html`). A round that ended without a report changed nothing.
 */
export type RoundTally = Readonly<{
  /** findings it opened */
  opened: number;
  /** decisions it made, by status */
  fixed: number;
  withdrawn: number;
  reopened: number;
  /** candidates it deferred to a follow-up */
  deferred: number;
  /** open findings after it, and how many of them block */
  stillOpen: number;
  blockingOpen: number;
  /** files its input changed since the last reviewed one (touched or renamed to); null with no capture */
  filesChanged: number | null;
}>;

/** How a round ended: one result each. Only a `complete` round can make a run converge. */
export type RoundOutcome = Readonly<{
  round: number;
  result: 'complete' | 'partial' | 'none' | 'ci_failed';
  /**
   * why, as the event that ended it said (`round.ended`); null when the record says it otherwise:
   * a CI failure is `failedChecks`, a partial merged round's reason its `absent` reviewers
   */
  reason: string | null;
  /** the required checks that did not pass, when a record of CI checks ended the round `ci_failed` */
  failedChecks?: ReadonlyArray<CheckResult>;
  /** the reviewers absent from a partial round merged from contributions, and why (`expert`: the JSON's spelling) */
  absent?: ReadonlyArray<Readonly<{ expert: string; reason: AbsenceReason }>>;
  /** why the round reviewed again the input the round before reviewed (`capture --same-input`) */
  sameInput?: string;
  /** the recorded report's hash, for a round that ended with one (a retry of it is recognised) */
  reportSha?: string;
  tally: RoundTally;
}>;

/** The stages of the round in progress: which finished (kept), which runs, how often each failed. */
export type StageProgress = Readonly<{
  finished: ReadonlyArray<string>;
  running: string | null;
  failures: Readonly<Record<string, number>>;
}>;

export type CostEntry = Readonly<{
  round: number;
  stage: string;
  runner: string;
  outcome: 'finished' | 'failed';
  cost: Cost;
}>;

/** A decision only a person makes, past the cap: who, and why. */
export type Ruling = Readonly<{
  round: number;
  findingId: string;
  status: 'fixed' | 'withdrawn';
  why: string;
  by: string;
  /** the key it was signed with (its SSH fingerprint), under a policy that pins signers */
  signedBy?: string;
}>;
export type Extension = Readonly<{
  round: number;
  rounds: number;
  why: string;
  by: string;
  /** the key it was signed with (its SSH fingerprint), under a policy that pins signers */
  signedBy?: string;
}>;

/**
 * Why a run stalled: a blocking finding decided `open` in `stallRounds` consecutive rounds
 * (`kept-open`), or reopened a second time, the fix not holding (`reopened-twice`), or upheld
 * after the policy's count of disputes (`disputed`: reviewers and author disagree, a person rules).
 */
export type StallWhy = 'kept-open' | 'reopened-twice' | 'disputed';
export type Stall = Readonly<{
  /** the round that stalled the run (it is blocked from there, before its cap) */
  round: number;
  findings: ReadonlyArray<Readonly<{ id: string; why: StallWhy }>>;
}>;

export type Run = Readonly<Pick<RunOpenedData, 'runId' | 'policy' | 'subject' | 'consent'>>;

export type RunState = Readonly<{
  status: RunStatus;
  /** null until `run.opened` */
  run: Run | null;
  /** the last round that ended (recorded, or ended without a complete report); 0 before any */
  round: number;
  /** the latest capture for round `round + 1`, if any */
  capture: RevisionCapturedData | null;
  /** the capture the last recorded round reviewed */
  reviewed: RevisionCapturedData | null;
  /**
   * every finding ever admitted, in the order they opened, indexed by id and by file, with the
   * count of open blocking ones: read it through `findingOf`, `findingsInOrder`, `openFindingsIn`
   */
  findings: Findings;
  /** how many findings of each severity were admitted over the run */
  admitted: Readonly<Record<string, number>>;
  suppressed: Vec<Suppressed>;
  /** candidates deferred to a follow-up, in the order their rounds deferred them */
  deferred: Vec<Deferred>;
  /** recorded rounds that reviewed again the input the round before reviewed (`capture --same-input`) */
  sameInputRounds: number;
  /** refuted candidates (and candidates refuted before), in the order their rounds dropped them */
  refuted: Vec<Refuted>;
  /** by candidate id: the places in `refuted` of its records (what a candidate offered again repeats) */
  refutedPlaces: PMap<ReadonlyArray<number>>;
  /**
   * by the SHA-256 of a file's name: the last recorded round whose capture touched it (listed it,
   * or renamed it to or from it), so a refuted candidate offered again is judged by whether its
   * file changed since
   */
  touchedIn: PMap<number>;
  /**
   * the open findings disputed and not yet ruled on, in the order disputed: the next recorded
   * round decides each (their disputes are on the findings)
   */
  disputed: ReadonlyArray<string>;
  /** failed attempts at collecting the next round's report (the trail keeps each one) */
  failedAttempts: number;
  lastFailure: RoundFailure | null;
  /** the stages of round `round + 1` */
  stages: StageProgress;
  /** what the run's stages spent, in all */
  spent: Cost;
  costs: Vec<CostEntry>;
  /** how each ended round ended, in order */
  outcomes: Vec<RoundOutcome>;
  /** rounds a person added past the policy's cap */
  extraRounds: number;
  rulings: Vec<Ruling>;
  extensions: Vec<Extension>;
  /** set when a person's ruling, not a round, made the run converge */
  convergedBy: Readonly<{ by: string; why: string }> | null;
  /** contributions and absences recorded for the round in progress (round + 1); cleared as each round ends */
  contributions: ReadonlyArray<Contribution>;
  absent: ReadonlyArray<Absentee>;
  /** each merged round's reviewers and absentees, in order */
  panels: Vec<Panel>;
  /** every reproduction re-run at the start of a re-review, in order (kept for the record) */
  reruns: Vec<Rerun>;
  /** the stall that blocked the run before its cap (policy `stallRounds`); an extension lifts it */
  stall: Stall | null;
  /**
   * the CI checks last recorded (`checks.recorded`), with the round and input they ran on: they
   * count only while that is the input in front of the rules (the round in progress's, or the one
   * the last round reviewed, for the gate), so a new capture needs its own
   */
  checks: ChecksRecordedData | null;
}>;

export const NO_STAGES: StageProgress = Object.freeze({
  finished: Object.freeze([]),
  running: null,
  failures: Object.freeze({}),
});

export const initialState: RunState = Object.freeze({
  status: 'unopened',
  run: null,
  round: 0,
  capture: null,
  reviewed: null,
  findings: emptyFindings,
  admitted: Object.freeze({}),
  suppressed: emptyVec,
  deferred: emptyVec,
  sameInputRounds: 0,
  refuted: emptyVec,
  refutedPlaces: emptyMap,
  touchedIn: emptyMap,
  disputed: Object.freeze([]),
  failedAttempts: 0,
  lastFailure: null,
  stages: NO_STAGES,
  spent: Object.freeze({}),
  costs: emptyVec,
  outcomes: emptyVec,
  extraRounds: 0,
  rulings: emptyVec,
  extensions: emptyVec,
  convergedBy: null,
  contributions: Object.freeze([]),
  absent: Object.freeze([]),
  panels: emptyVec,
  reruns: emptyVec,
  stall: null,
  checks: null,
});

export const isFinal = (status: RunStatus): boolean => status === 'converged' || status === 'blocked';

/** The cap in force: the policy's rounds plus any a person added. */
export const maxRoundsOf = (state: RunState): number =>
  (state.run?.policy.maxRounds ?? 0) + state.extraRounds;

/**
 * The shape of `RunState` as plain JSON: bump it whenever a field is added, removed or changes
 * meaning. The store's fold cache records it, and a cache written for another shape is ignored.
 */
// 2: growing lists became persistent vectors (`Vec`), and a finding keeps `steps` (carried steps derived)
// 3: contributions and absences of the round in progress, each merged round's panel, a finding's
//    reviewers and mergedFrom
// 4: a recorded round's outcome keeps its reportSha (a retry of it is recognised)
// 5: the reproductions re-run at the start of each re-review (`reruns`)
// 6: refuted candidates (`refuted`), a finding's assessment (`verdict`)
// 7: a panel lists each contribution (`reports`: reviewer, reportSha, candidates, decisions)
// 8: a finding's step may be `reopened`; a run blocked early keeps its `stall`
// 9: findings held in a persistent vector with an index by id and by file and the open counts
//    (`Findings`); contributions and absences cleared when a round ends without a report too
// 10: deferred candidates (`deferred`), the count of same-input rounds, each outcome's `tally`,
//     and the CI checks last recorded, with their round and input (`checks`)
// 11: an outcome's reason is only what an event said: a CI failure keeps its `failedChecks`, a
//     partial merged round its `absent` reviewers (put in words by src/render, not stored as text);
//     a round on the same input again keeps why (`sameInput`)
// 12: a finding keeps where it was cited (`cited`) once its line follows its code, a rename moves
//     it or a verifier places it (`correction`), and says when its cited line is gone (`outdated`)
// 13: a finding's `disputes` and the findings disputed and not yet ruled on (`disputed`); a refuted
//     record's `claim` and `before`, the places of each id's records (`refutedPlaces`) and the last
//     round that touched each file (`touchedIn`); a stall's `disputed` findings
export const STATE_SHAPE_VERSION = 13;
