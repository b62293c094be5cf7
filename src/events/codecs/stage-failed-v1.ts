import * as t from 'io-ts';
import { CostCodec } from './cost-codec.js';

/** A stage of a round failed, and what it spent. Never edit: add a version. */
export const StageFailedV1 = t.type({
  round: t.number,
  stage: t.string,
  reason: t.string,
  cost: CostCodec,
  runner: t.string,
});
