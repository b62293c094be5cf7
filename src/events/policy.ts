import { z } from 'zod';
import { DECISION_STATUSES, type DecisionStatus } from './report.js';

/**
 * A policy is data, pinned in `run.opened`: the rules of a run cannot change once it starts.
 * Severity admission is per severity: whether it blocks, whether it may enter only in round 1,
 * and how many of it may be admitted over the whole run (the rest are suppressed, visibly).
 */
export type SeverityRule = Readonly<{
  blocks: boolean;
  firstRoundOnly: boolean;
  maxAdmitted: number | null;
}>;

export type Policy = Readonly<{
  name: string;
  maxRounds: number;
  severities: Readonly<Record<string, SeverityRule>>;
  /** A report with no candidates must list what it did not examine. */
  notExaminedRequired: boolean;
  /** Decisions allowed on a finding whose file was not touched since the last reviewed input. */
  untouchedDecisions: ReadonlyArray<DecisionStatus>;
  /** `required`: every candidate's citation must resolve at the captured revision (default `optional`) */
  citations?: CitationPolicy;
  /**
   * What an approval is bound to (default `commit`). `tree`, after Gerrit's copy conditions, lets
   * an approval survive a new commit whose tree is identical, such as a message-only amend.
   */
  bind?: BindPolicy;
}>;

export type CitationPolicy = 'required' | 'optional';
export type BindPolicy = 'commit' | 'tree';

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
  },
  /** issueflow: `critical`/`high` block, `medium`/`low` advise, 3 rounds, an empty report says what it skipped. */
  issueflow: {
    name: 'issueflow',
    maxRounds: 3,
    severities: { critical: blocking, high: blocking, medium: advisory, low: advisory },
    notExaminedRequired: true,
    untouchedDecisions: ['open', 'withdrawn'],
    citations: 'required',
  },
} as const satisfies Record<string, Policy>;

export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export const isPresetName = (name: string): name is PresetName => Object.hasOwn(PRESETS, name);

const SeverityRuleSchema = z.strictObject({
  blocks: z.boolean(),
  firstRoundOnly: z.boolean().default(false),
  maxAdmitted: z.number().int().nonnegative().nullable().default(null),
});

/** A custom policy supplied by a user (`clearance open --policy-file`), validated at the boundary. */
export const PolicySchema = z.strictObject({
  name: z.string().min(1),
  maxRounds: z.number().int().min(1).max(1_000_000),
  severities: z
    .record(z.string().min(1), SeverityRuleSchema)
    .refine((s) => Object.keys(s).length > 0, 'a policy needs at least one severity'),
  notExaminedRequired: z.boolean().default(false),
  untouchedDecisions: z.array(z.enum(DECISION_STATUSES)).default([]),
  citations: z.enum(['required', 'optional']).optional(),
  bind: z.enum(['commit', 'tree']).optional(),
});

export const citationsRequired = (policy: Policy): boolean => policy.citations === 'required';

export const blocksFor = (policy: Policy, severity: string): boolean =>
  policy.severities[severity]?.blocks === true;
