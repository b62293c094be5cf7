import type { OPEN_FINDING_DECISIONS } from './statuses.js';

/** A decision on an open finding: what a policy may allow in a file the fix did not touch. */
export type OpenFindingDecision = (typeof OPEN_FINDING_DECISIONS)[number];

/**
 * A policy is data, pinned in `run.opened`: the rules of a run cannot change once it starts.
 * Severity admission is per severity: whether it blocks, the last round it may enter in, and how
 * many of it may be admitted over the whole run (the rest are suppressed, visibly).
 */
export type SeverityRule = Readonly<{
  blocks: boolean;
  /** enters in round 1 only; a later candidate is suppressed (`late`). The older spelling of `untilRound: 1` */
  firstRoundOnly: boolean;
  maxAdmitted: number | null;
  /**
   * the last round a candidate of this severity is admitted in (absent: every round). A later
   * candidate is deferred to a follow-up: kept on the record with its reviewer and evidence,
   * never a finding, never blocking.
   */
  untilRound?: number;
}>;

export type Policy = Readonly<{
  name: string;
  maxRounds: number;
  severities: Readonly<Record<string, SeverityRule>>;
  /** A report with no candidates must list what it did not examine. */
  notExaminedRequired: boolean;
  /** Decisions allowed on a finding whose file was not touched since the last reviewed input. */
  untouchedDecisions: ReadonlyArray<OpenFindingDecision>;
  /** `required`: every candidate's citation must resolve at the captured revision (default `optional`) */
  citations?: CitationPolicy;
  /**
   * What an approval is bound to (default `commit`). `tree`, after Gerrit's copy conditions, lets
   * an approval survive a new commit whose tree is identical, such as a message-only amend.
   */
  bind?: BindPolicy;
  /** the reviewers a round expects (default none: any contributors, or one anonymous report) */
  experts?: ReadonlyArray<string>;
  /** candidates of one category in one file this many lines apart or closer merge (default 3) */
  mergeWithinLines?: number;
  /**
   * Stalls caught before the cap (absent: off). The run ends `blocked` early, reason `stalled`,
   * when a blocking finding is decided `open` in this many consecutive rounds, or is reopened a
   * second time. An integer >= 2 (rules/lifecycle.ts); the `standard` preset sets 2.
   */
  stallRounds?: number;
  /**
   * what a `plausible` verdict means (default `blocks`: it counts like confirmed, its severity
   * decides). `advisory`: a plausible finding never blocks. `advisory-outside-fix`: from round 2,
   * a plausible finding in a file the last fix did not touch does not block (issueflow's rule
   * against findings that oscillate between rounds).
   */
  plausible?: PlausiblePolicy;
  /**
   * the non-blocking severity a candidate gets when `introducedByDiff: false` (default: the
   * policy's `pre-existing` severity when it has one that does not block; else none, and such a
   * candidate keeps its severity)
   */
  preExistingSeverity?: string;
  /** the stages every round runs, in order (planning, experts, verify, summarize by default) */
  stages: ReadonlyArray<string>;
  /** what the whole run may spend; a stage that would overrun it is refused */
  budget: Budget;
  /** when set, only a finding in one of these categories can block (null: any category) */
  blockingCategories: ReadonlyArray<string> | null;
  /** categories whose findings must name the principle they rest on */
  principleCategories: ReadonlyArray<string>;
  /**
   * The people whose rulings count (absent: anyone named by `--by`). Under such a policy, a
   * ruling or an extension carries an Ed25519 signature by the key of the principal it names, over
   * the run, the line it follows and the ruling itself; the fold checks it (`unsigned-ruling`).
   */
  signers?: ReadonlyArray<Signer>;
  /**
   * How many rounds of the run may review the very input the round before reviewed, each a
   * recorded choice (`capture --same-input --reason`). Absent: 0, so a capture of unchanged bytes
   * is refused (`unchanged-input`).
   */
  sameInputRounds?: number;
  /**
   * From round 2, what a new candidate in a file the last fix did not touch becomes (default
   * `admit`: a finding like any other). `advisory`: a finding that never blocks. `defer`:
   * deferred to a follow-up, never a finding.
   */
  newOutsideFix?: NewOutsideFixPolicy;
  /**
   * The project's CI checks, by name (absent: rounds and the gate know nothing of checks). Under a
   * policy with `required` checks, each round's checks are recorded on its captured input before
   * its report (`checks.recorded`); a required check that failed, or was skipped without being in
   * `expectedSkips`, ends the round `ci_failed`, and the gate approves only what they passed on.
   */
  checks?: ChecksPolicy;
  /**
   * The author's answer to a finding (`finding.disputed`): whether an author may dispute one, and
   * after how many upheld disputes a blocking finding ends the run `blocked` early, reason
   * `disputed`, for a person to rule (absent: allowed, after 2).
   */
  disputes?: DisputesPolicy;
}>;

/** Disputes: allowed or not, and how many upheld disputes of one blocking finding block the run. */
export type DisputesPolicy = Readonly<{ allowed: boolean; blockAfter: number }>;

/** CI checks by name: which must pass, which are only noted, and which may be skipped (rules/checks.ts). */
export type ChecksPolicy = Readonly<{
  required: ReadonlyArray<string>;
  optional: ReadonlyArray<string>;
  expectedSkips: ReadonlyArray<string>;
}>;

/** A person who may rule, and the key their rulings are signed with (`ssh-ed25519 AAAA…`). */
export type Signer = Readonly<{ principal: string; key: string }>;

/** An amount spent or allowed: any of tokens, money (USD) and wall-clock seconds. */
export type Cost = Readonly<{ tokens?: number; usd?: number; seconds?: number }>;
export type Budget = Cost;
export const COST_KEYS = ['tokens', 'usd', 'seconds'] as const;

export const DEFAULT_STAGES: ReadonlyArray<string> = ['planning', 'experts', 'verify', 'summarize'];

export type CitationPolicy = 'required' | 'optional';
export const PLAUSIBLE_POLICIES = ['blocks', 'advisory', 'advisory-outside-fix'] as const;
export type PlausiblePolicy = (typeof PLAUSIBLE_POLICIES)[number];
export type BindPolicy = 'commit' | 'tree';
export const NEW_OUTSIDE_FIX_POLICIES = ['admit', 'advisory', 'defer'] as const;
export type NewOutsideFixPolicy = (typeof NEW_OUTSIDE_FIX_POLICIES)[number];

/** The `stallRounds` a policy that turns stalls on gets unless it says otherwise (the `standard` preset's). */
export const DEFAULT_STALL_ROUNDS = 2;

const blocking: SeverityRule = { blocks: true, firstRoundOnly: false, maxAdmitted: null };
const advisory: SeverityRule = { blocks: false, firstRoundOnly: false, maxAdmitted: null };

export const PRESETS = {
  /** The reference semantics: 4 rounds, `major` blocks, `nit` only in round 1 and at most 5. */
  default: {
    name: 'default',
    maxRounds: 4,
    severities: { major: blocking, nit: { blocks: false, firstRoundOnly: true, maxAdmitted: 5 } },
    notExaminedRequired: false,
    untouchedDecisions: [],
    stages: DEFAULT_STAGES,
    budget: {},
    blockingCategories: null,
    principleCategories: [],
  },
  /** issueflow: `critical`/`high` block, `medium`/`low` advise, 3 rounds, an empty report says what it skipped. */
  issueflow: {
    name: 'issueflow',
    maxRounds: 3,
    severities: { critical: blocking, high: blocking, medium: advisory, low: advisory },
    notExaminedRequired: true,
    untouchedDecisions: ['open', 'withdrawn'],
    citations: 'required',
    stages: DEFAULT_STAGES,
    budget: {},
    blockingCategories: null,
    principleCategories: [],
  },
  /**
   * standard: Google's standard of code review with Conventional Comments labels. Only an `issue`
   * that shows a bug, a vulnerability or a regression blocks; suggestions, nitpicks and the rest
   * never do; a design finding names the principle it rests on. A fix that does not hold stops
   * the run early (`stallRounds`: 2).
   */
  standard: {
    name: 'standard',
    maxRounds: 4,
    severities: {
      issue: blocking,
      todo: advisory,
      suggestion: advisory,
      nitpick: advisory,
      question: advisory,
      thought: advisory,
      chore: advisory,
      note: advisory,
    },
    notExaminedRequired: false,
    untouchedDecisions: [],
    stallRounds: DEFAULT_STALL_ROUNDS,
    stages: DEFAULT_STAGES,
    budget: {},
    blockingCategories: ['bug', 'vulnerability', 'regression'],
    principleCategories: ['design'],
  },
  /**
   * converging: the bar rises by round, so a loop runs out of new things to say. `critical` and
   * `major` block in every round; `minor` is admitted until round 2 and `nit` in round 1 only,
   * later ones deferred to a follow-up (kept, shown, never blocking). A blocking finding is
   * admitted wherever it is found: scoping later rounds to the fix (`newOutsideFix`) is a choice
   * a policy makes, not this preset, because a blocking bug outside the fix still blocks. A fix
   * that does not hold stops the run early (`stallRounds`: 2); no round reviews unchanged bytes.
   */
  converging: {
    name: 'converging',
    maxRounds: 4,
    severities: {
      critical: blocking,
      major: blocking,
      minor: { ...advisory, untilRound: 2 },
      nit: { ...advisory, untilRound: 1 },
    },
    notExaminedRequired: false,
    untouchedDecisions: [],
    stallRounds: DEFAULT_STALL_ROUNDS,
    stages: DEFAULT_STAGES,
    budget: {},
    blockingCategories: null,
    principleCategories: [],
  },
} as const satisfies Record<string, Policy>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export const isPresetName = (name: string): name is PresetName => Object.hasOwn(PRESETS, name);

export const DEFAULT_MERGE_WITHIN_LINES = 3;
export const mergeWithinLinesOf = (policy: Policy): number =>
  policy.mergeWithinLines ?? DEFAULT_MERGE_WITHIN_LINES;

export const plausibleOf = (policy: Policy): PlausiblePolicy => policy.plausible ?? 'blocks';
export const newOutsideFixOf = (policy: Policy): NewOutsideFixPolicy => policy.newOutsideFix ?? 'admit';
export const sameInputRoundsOf = (policy: Policy): number => policy.sameInputRounds ?? 0;

/** How many upheld disputes of one blocking finding end the run `blocked` unless the policy says otherwise. */
export const DEFAULT_DISPUTE_BLOCK_AFTER = 2;
export const disputesAllowed = (policy: Policy): boolean => policy.disputes?.allowed ?? true;
export const disputeBlockAfter = (policy: Policy): number =>
  policy.disputes?.blockAfter ?? DEFAULT_DISPUTE_BLOCK_AFTER;

export const PRE_EXISTING = 'pre-existing';

/** The severity a pre-existing candidate takes, or null when the policy re-grades none. */
export const preExistingSeverityOf = (policy: Policy): string | null => {
  if (policy.preExistingSeverity !== undefined) return policy.preExistingSeverity;
  return policy.severities[PRE_EXISTING]?.blocks === false ? PRE_EXISTING : null;
};

export const citationsRequired = (policy: Policy): boolean => policy.citations === 'required';

/** Whether a finding of this severity and category blocks convergence under the policy. */
export const blocksFor = (policy: Policy, severity: string, category: string): boolean =>
  policy.severities[severity]?.blocks === true &&
  (policy.blockingCategories === null || policy.blockingCategories.includes(category));
