import * as t from 'io-ts';
import type { Policy } from '../policy.js';
import { CostCodec } from './cost-codec.js';
import { PolicyCodecV1 } from './policy-v1.js';
import type { SameShape } from './same-shape.js';

/** The policy as `run.opened` v2 pins it: v1's, and the stages, the budget and the categories that block. */
export const PolicyCodecV2 = t.intersection([
  PolicyCodecV1,
  t.type({
    stages: t.array(t.string),
    budget: CostCodec,
    blockingCategories: t.union([t.array(t.string), t.null]),
    principleCategories: t.array(t.string),
  }),
]);

// the decoded policy is the domain policy: neither has a field the other lacks
const _samePolicy: SameShape<t.TypeOf<typeof PolicyCodecV2>, Policy> = true;
void _samePolicy;
