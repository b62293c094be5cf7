import * as t from 'io-ts';
import { CostCodec } from './cost-codec.js';
import { PolicyCodecV1 } from './policy-v1.js';

/**
 * The policy as `run.opened` v2 pins it: v1's, and the stages, the budget and the categories that
 * block (a v1 run is upcast to no stages, no budget, any category blocks). Never edit: add a version.
 */
export const PolicyCodecV2 = t.intersection([
  PolicyCodecV1,
  t.type({
    /** the stages every round runs, in order (planning, experts, verify, summarize by default; `experts` is the reviewers' stage) */
    stages: t.array(t.string),
    /** what the whole run may spend; a stage that would overrun it is refused */
    budget: CostCodec,
    /** when set, only a finding in one of these categories can block (null: any category) */
    blockingCategories: t.union([t.array(t.string), t.null]),
    /** categories whose findings must name the principle they rest on */
    principleCategories: t.array(t.string),
  }),
]);
