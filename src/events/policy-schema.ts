import * as z from 'zod';
import type { SameShape } from './codecs/same-shape.js';
import {
  DEFAULT_DISPUTE_BLOCK_AFTER,
  DEFAULT_STAGES,
  NEW_OUTSIDE_FIX_POLICIES,
  PLAUSIBLE_POLICIES,
  type Policy,
} from './policy.js';
import { CostSchema } from './round-report.js';
import { OPEN_FINDING_DECISIONS } from './statuses.js';

// Apart from policy.ts so that what reads a policy already pinned in a log (the rules, `status`)
// does not load zod: only a policy supplied by a user is parsed.

const SeverityRuleSchema = z.strictObject({
  blocks: z.boolean(),
  firstRoundOnly: z.boolean().default(false),
  maxAdmitted: z.number().nullable().default(null),
  untilRound: z
    .number()
    .optional()
    .describe(
      'the last round a candidate of this severity is admitted in; later ones are deferred to a follow-up (an integer >= 1, absent: every round)',
    ),
});

/**
 * A custom policy supplied by a user (`clearance open --policy-file`): its shape, with the stated
 * defaults filled in. What its values must be (maxRounds from 1 to 1,000,000, distinct stages, a
 * budget >= 0, …) is decided once, by `policyIsUsable` in src/projections/rules/lifecycle.ts,
 * for a policy from a file, from a preset or from a library caller alike.
 */
export const PolicySchema = z.strictObject({
  name: z.string(),
  maxRounds: z.number(),
  severities: z.record(z.string(), SeverityRuleSchema),
  notExaminedRequired: z.boolean().default(false),
  untouchedDecisions: z.array(z.enum(OPEN_FINDING_DECISIONS)).default([]),
  citations: z.enum(['required', 'optional']).optional(),
  bind: z.enum(['commit', 'tree']).optional(),
  /** the reviewers a round expects: `experts` is their stored spelling, pinned in policies and logs */
  experts: z.array(z.string()).optional(),
  mergeWithinLines: z.number().optional(),
  stallRounds: z
    .number()
    .optional()
    .describe(
      'end the run blocked early (reason stalled) when a blocking finding is decided open in this many consecutive rounds, or reopened a second time; an integer >= 2, absent: off',
    ),
  plausible: z.enum(PLAUSIBLE_POLICIES).optional(),
  preExistingSeverity: z.string().optional(),
  stages: z.array(z.string()).default([...DEFAULT_STAGES]),
  budget: CostSchema.default({}),
  blockingCategories: z.array(z.string()).nullable().default(null),
  principleCategories: z.array(z.string()).default([]),
  signers: z
    .array(
      z.strictObject({
        principal: z.string().describe('who rules: the name --by gives'),
        key: z.string().describe('their Ed25519 public key, as a .pub file holds it: ssh-ed25519 AAAA…'),
      }),
    )
    .optional()
    .describe(
      'the people whose rulings count, and the keys their rulings are signed with; absent: anyone named by --by',
    ),
  sameInputRounds: z
    .number()
    .optional()
    .describe(
      'how many rounds may review the input the round before reviewed, each recorded with capture --same-input --reason (an integer >= 0, absent: 0)',
    ),
  newOutsideFix: z
    .enum(NEW_OUTSIDE_FIX_POLICIES)
    .optional()
    .describe(
      'from round 2, a new candidate in a file the last fix did not touch: admit (default), advisory (never blocks) or defer (to a follow-up)',
    ),
  checks: z
    .strictObject({
      required: z
        .array(z.string())
        .default([])
        .describe(
          'checks that must pass: a failure, or a skip not in expectedSkips, ends the round ci_failed',
        ),
      optional: z.array(z.string()).default([]).describe('checks whose failure is noted, never ci_failed'),
      expectedSkips: z
        .array(z.string())
        .default([])
        .describe('checks (required or optional) that may be skipped, or not run at all'),
    })
    .optional()
    .describe(
      "the project's CI checks by name, recorded on each round's input before its report (clearance checks); the gate approves only when every required check passed; absent: rounds and the gate know nothing of checks",
    ),
  disputes: z
    .strictObject({
      allowed: z
        .boolean()
        .default(true)
        .describe('whether the author may dispute a finding (clearance dispute); false: never'),
      blockAfter: z
        .number()
        .default(DEFAULT_DISPUTE_BLOCK_AFTER)
        .describe(
          'a blocking finding upheld after this many disputes ends the run blocked early (reason disputed), for a person to rule; an integer >= 1',
        ),
    })
    .optional()
    .describe(
      "the author's answer to a finding: a dispute, with one line of reasoning, that the next round must rule on; absent: allowed, blocking after 2 upheld disputes",
    ),
});

// the door gives back a policy as a log pins it: neither has a field the other lacks
const _samePolicy: SameShape<z.output<typeof PolicySchema>, Policy> = true;
void _samePolicy;
