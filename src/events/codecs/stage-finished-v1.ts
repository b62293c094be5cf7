import * as t from 'io-ts';
import { CostCodec } from './cost-codec.js';

/** A stage of a round finished, its output archived. Never edit: add a version. */
export const StageFinishedV1 = t.type({
  round: t.number,
  stage: t.string,
  /** SHA-256 of the stage's output, archived at <dir>/runs/<runId>/objects/<sha> before this event */
  outputSha: t.string,
  cost: CostCodec,
  /** who ran it: an agent, a model, a person */
  runner: t.string,
});
