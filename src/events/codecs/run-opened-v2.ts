import * as t from 'io-ts';
import type { Budget } from '../policy.js';
import { PolicyCodecV2 } from './policy-v2.js';
import type { RunOpenedV1 } from './run-opened-v1.js';

/** `run.opened` v2: its policy names the stages, the budget and the categories that block. Never edit: add a version. */
export const RunOpenedV2 = t.type({
  runId: t.string,
  policy: PolicyCodecV2,
  subject: t.partial({ repo: t.string, artifact: t.string }),
  consent: t.intersection([t.type({ by: t.string }), t.partial({ commands: t.array(t.string) })]),
});

const NO_BUDGET: Budget = {};

/** A v1 run ran no stages, had no budget, and blocked by severity alone. */
export const upcastRunOpenedV1 = (v1: t.TypeOf<typeof RunOpenedV1>): t.TypeOf<typeof RunOpenedV2> => ({
  ...v1,
  policy: { ...v1.policy, stages: [], budget: NO_BUDGET, blockingCategories: null, principleCategories: [] },
});
