import * as t from 'io-ts';
import { CostCodec } from './cost-codec.js';

/** A stage of a round began, with the commands it runs. Never edit: add a version. */
export const StageStartedV1 = t.intersection([
  t.type({ round: t.number, stage: t.string, commands: t.array(t.string) }),
  /** what the stage expects to spend: refused up front if it would overrun the budget */
  t.partial({ estimate: CostCodec }),
]);
