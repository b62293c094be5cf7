import * as t from 'io-ts';
import type { Budget, Policy } from '../policy.js';
import { CostCodec } from './cost-codec.js';
import { RoundRecordedV1, type RunOpenedV1 } from './events-v1.js';
import { PolicyCodecV1 } from './policy-v1.js';
import { roundRecordedCarrying } from './report-carriers.js';
import { ReportCodecV2 } from './report-codecs.js';
import type { SameShape } from './same-shape.js';

/**
 * Version 2 of `run.opened` and `round.recorded`, and the lifecycle events (new, so at version 1).
 * Each v1 → v2 upcaster says what an old log meant: it ran no stages, had no budget, and every
 * recorded round was complete. Never edit: add a v3.
 */

export const PolicyCodecV2 = t.intersection([
  PolicyCodecV1,
  t.type({
    stages: t.array(t.string),
    budget: CostCodec,
    blockingCategories: t.union([t.array(t.string), t.null]),
    principleCategories: t.array(t.string),
  }),
]);

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

export const ROUND_RESULTS = ['complete', 'partial'] as const;

export const RoundRecordedV2 = roundRecordedCarrying(ReportCodecV2);

/** Every round recorded before results existed was a complete review. */
export const upcastRoundRecordedV1 = (
  v1: t.TypeOf<typeof RoundRecordedV1>,
): t.TypeOf<typeof RoundRecordedV2> => ({
  ...v1,
  result: 'complete',
});

export const StageStartedV1 = t.intersection([
  t.type({ round: t.number, stage: t.string, commands: t.array(t.string) }),
  /** what the stage expects to spend: refused up front if it would overrun the budget */
  t.partial({ estimate: CostCodec }),
]);

export const StageFinishedV1 = t.type({
  round: t.number,
  stage: t.string,
  /** SHA-256 of the stage's output, archived at <dir>/runs/<runId>/objects/<sha> before this event */
  outputSha: t.string,
  cost: CostCodec,
  /** who ran it: an agent, a model, a person */
  runner: t.string,
});

export const StageFailedV1 = t.type({
  round: t.number,
  stage: t.string,
  reason: t.string,
  cost: CostCodec,
  runner: t.string,
});

export const ROUND_END_RESULTS = ['none', 'ci_failed', 'partial'] as const;

export const RoundEndedV1 = t.type({
  round: t.number,
  result: t.keyof({ none: null, ci_failed: null, partial: null }),
  reason: t.string,
});

export const FindingRuledV1 = t.type({
  findingId: t.string,
  status: t.keyof({ fixed: null, withdrawn: null }),
  why: t.string,
  by: t.string,
});

export const RoundsExtendedV1 = t.type({ rounds: t.number, why: t.string, by: t.string });

// the decoded policy is the domain policy: neither has a field the other lacks
type PersistedPolicy = t.TypeOf<typeof PolicyCodecV2>;
const _samePolicy: SameShape<PersistedPolicy, Policy> = true;
void _samePolicy;
void RoundRecordedV1;
