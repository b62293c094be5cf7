import type * as t from 'io-ts';
import type { CostCodec } from './codecs/cost-codec.js';
import type { PolicyCodecV2 } from './codecs/policy-v2.js';
import type { OPEN_FINDING_DECISIONS } from './statuses.js';

/** A decision on an open finding: what a policy may allow in a file the fix did not touch. */
export type OpenFindingDecision = (typeof OPEN_FINDING_DECISIONS)[number];

/** A value as the domain holds it: read-only all the way down. */
type Frozen<T> =
  T extends ReadonlyArray<infer E>
    ? ReadonlyArray<Frozen<E>>
    : T extends object
      ? { readonly [K in keyof T]: Frozen<T[K]> }
      : T;

/**
 * A policy is data, pinned in `run.opened`: the rules of a run cannot change once it starts. It is
 * the policy the latest `run.opened` codec decodes (codecs/policy-v2.ts, where each field says what
 * it means), so what the fold reads and what a log holds cannot differ; the door's schema
 * (policy-schema.ts) is held to it at compile time.
 */
export type Policy = Frozen<t.TypeOf<typeof PolicyCodecV2>>;
export type SeverityRule = Policy['severities'][string];
/** CI checks by name: which must pass, which are only noted, and which may be skipped (rules/checks.ts). */
export type ChecksPolicy = NonNullable<Policy['checks']>;
/** Disputes: allowed or not, and how many upheld disputes of one blocking finding block the run. */
export type DisputesPolicy = NonNullable<Policy['disputes']>;
/** A person who may rule, and the key their rulings are signed with (`ssh-ed25519 AAAA…`). */
export type Signer = NonNullable<Policy['signers']>[number];

/** An amount spent or allowed: any of tokens, money (USD) and wall-clock seconds. */
export type Cost = Frozen<t.TypeOf<typeof CostCodec>>;
export type Budget = Cost;
export const COST_KEYS = ['tokens', 'usd', 'seconds'] as const satisfies ReadonlyArray<keyof Cost>;

/** `experts` is the reviewers' stage: the stored spelling, a name policies and logs pin. */
export const DEFAULT_STAGES: ReadonlyArray<string> = ['planning', 'experts', 'verify', 'summarize'];

export type CitationPolicy = NonNullable<Policy['citations']>;
export type BindPolicy = NonNullable<Policy['bind']>;
export type PlausiblePolicy = NonNullable<Policy['plausible']>;
export type NewOutsideFixPolicy = NonNullable<Policy['newOutsideFix']>;
// the door's choices (policy-schema.ts, which fails to compile on one a log's policy cannot hold)
export const PLAUSIBLE_POLICIES = ['blocks', 'advisory', 'advisory-outside-fix'] as const;
export const NEW_OUTSIDE_FIX_POLICIES = ['admit', 'advisory', 'defer'] as const;

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
