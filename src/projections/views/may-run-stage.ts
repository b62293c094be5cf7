import * as E from 'fp-ts/lib/Either.js';
import type { DomainEvent } from '../../events/event.js';
import type { Cost } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import { decideCommand } from '../decider.js';
import { evolveAll } from '../evolve-all.js';
import type { RunState } from '../state.js';

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
  const verdict = E.chain((events: ReadonlyArray<DomainEvent>) => evolveAll(state, events))(
    decideCommand({ kind: 'start-stage', stage: { stage, commands, estimate } }, state),
  );
  return {
    allowed: E.isRight(verdict),
    stage,
    rejection: E.isLeft(verdict) ? verdict.left : null,
    spent: state.spent,
    budget: state.run?.policy.budget ?? {},
  };
};
