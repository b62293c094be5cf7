import * as E from '#either';
import type { Cost } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import { createDecider } from '../decider.js';
import type { RunState } from '../state.js';

// a stage's start is never signed: no verifier is needed to ask whether it may happen
const { decide } = createDecider();

export type MayAnswer = Readonly<{
  allowed: boolean;
  stage: string;
  /** why not: the rule that would refuse the step */
  rejection: Rejection | null;
  spent: Cost;
  budget: Cost;
}>;

/**
 * May the driver run this stage, at this estimated cost, with these commands? Asked of the one
 * transition function, as a dry run: nothing is written and no rule is restated here.
 */
export const mayRunStage = (
  state: RunState,
  stage: string,
  estimate: Cost = {},
  commands: ReadonlyArray<string> = [],
): MayAnswer => {
  const answer = decide({ kind: 'start-stage', stage: { stage, commands, estimate } }, state);
  return {
    allowed: E.isRight(answer),
    stage,
    rejection: E.isLeft(answer) ? answer.left : null,
    spent: state.spent,
    budget: state.run?.policy.budget ?? {},
  };
};
