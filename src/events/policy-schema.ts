import * as z from 'zod';
import { DEFAULT_STAGES, PLAUSIBLE_POLICIES } from './policy.js';
import { DECISION_STATUSES } from './statuses.js';

// Apart from policy.ts so that what reads a policy already pinned in a log (the rules, `status`)
// does not load zod: only a policy supplied by a user is parsed.

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
  experts: z.array(z.string().min(1)).optional(),
  mergeWithinLines: z.number().int().nonnegative().optional(),
  plausible: z.enum(PLAUSIBLE_POLICIES).optional(),
  preExistingSeverity: z.string().min(1).optional(),
  stages: z.array(z.string().min(1)).default([...DEFAULT_STAGES]),
  budget: z
    .strictObject({
      tokens: z.number().nonnegative().optional(),
      usd: z.number().nonnegative().optional(),
      seconds: z.number().nonnegative().optional(),
    })
    .default({}),
  blockingCategories: z.array(z.string().min(1)).nullable().default(null),
  principleCategories: z.array(z.string().min(1)).default([]),
});
