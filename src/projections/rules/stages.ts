import * as E from '#either';
import type { StageFailed, StageFinished, StageStarted } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import type { Rejection } from '../../events/rejection.js';
import type { Run, RunState } from '../state.js';
import { push } from '../vec.js';
import { addCost, costIsReal, depleted, overrun } from './cost-bounds.js';
import { acceptingRounds } from './lifecycle.js';
import { forNextRound } from './next-round.js';
import { fail, isBlank } from './rule-answer.js';

type StageEvent = StageStarted | StageFinished | StageFailed;

/** Stage events belong to the round in progress, whose input was captured, and name a stage of the policy. */
const inRoundInProgress = (state: RunState, event: StageEvent): E.Either<Rejection, Run> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, stage } = event.data;
  const inOrder = forNextRound(
    state,
    round,
    (next) => `${event.type} for round ${round}, but the round in progress is ${next}`,
  );
  if (E.isLeft(inOrder)) return inOrder;
  if (state.capture === null) {
    return fail(
      'no-revision',
      `no revision was captured for round ${round}: capture the input before running its stages`,
      ['round'],
    );
  }
  const stages = run.right.policy.stages;
  if (!stages.includes(stage)) {
    return fail(
      'unknown-stage',
      `stage ${JSON.stringify(stage)} is not a stage of policy ${run.right.policy.name} (stages: ${stages.join(', ') || 'none'})`,
      ['stage'],
    );
  }
  return run;
};

/**
 * `stage.started`: stages run one at a time, in the policy's order; a finished stage is kept and
 * never re-run (a crashed running stage may start again); every command it declares must be one
 * the user consented to; and it is refused up front if its estimate would overrun the budget.
 */
export const onStageStarted = (state: RunState, event: StageStarted): E.Either<Rejection, RunState> => {
  const run = inRoundInProgress(state, event);
  if (E.isLeft(run)) return run;
  const { stage, commands, estimate } = event.data;
  const { policy } = run.right;
  const progress = state.stages;
  if (progress.finished.includes(stage)) {
    return fail(
      'stage-repeated',
      `stage ${stage} of round ${event.data.round} already finished: a finished stage is kept, never re-run`,
      ['stage'],
    );
  }
  if (progress.running !== null && progress.running !== stage) {
    return fail(
      'stage-out-of-order',
      `stage ${progress.running} is still running: finish or fail it before starting ${stage}`,
      ['stage'],
    );
  }
  const missing = policy.stages
    .slice(0, policy.stages.indexOf(stage))
    .filter((s) => !progress.finished.includes(s));
  if (missing.length > 0) {
    return fail(
      'stage-out-of-order',
      `stage ${stage} cannot start before ${missing.join(', ')} finished (stages run in order: ${policy.stages.join(', ')})`,
      ['stage'],
    );
  }
  const consented = run.right.consent.commands ?? [];
  for (const [i, command] of commands.entries()) {
    if (!consented.includes(command)) {
      return fail(
        'no-consent',
        `stage ${stage} declares the command ${JSON.stringify(command)}, which ${run.right.consent.by} did not consent to (consented: ${consented.map((c) => JSON.stringify(c)).join(', ') || 'none'})`,
        ['commands', i],
      );
    }
  }
  if (estimate !== undefined) {
    const real = costIsReal(estimate, ['estimate']);
    if (E.isLeft(real)) return real;
  }
  const over = depleted(policy.budget, state.spent) ?? overrun(policy.budget, state.spent, estimate);
  if (over !== null) {
    return fail(
      'over-budget',
      `stage ${stage} would overrun the budget (${over}): the round can only end partial`,
      ['estimate'],
      undefined,
      stepTo('record', run.right.runId, { end: 'partial' }),
    );
  }
  return E.right({ ...state, stages: { ...progress, running: stage } });
};

const wasRunning = (state: RunState, event: StageFinished | StageFailed): E.Either<Rejection, void> =>
  state.stages.running === event.data.stage
    ? E.right(undefined)
    : fail(
        'stage-not-started',
        `stage ${event.data.stage} is not running (${state.stages.running === null ? 'no stage is' : `${state.stages.running} is`}): start it before it can end`,
        ['stage'],
      );

const ranBy = (event: StageFinished | StageFailed): E.Either<Rejection, void> => {
  if (isBlank(event.data.runner))
    return fail('empty-field', `${event.type} runner is empty: say who ran the stage`, ['runner']);
  return costIsReal(event.data.cost, ['cost']);
};

/** `stage.finished`: its output was archived first (`outputSha`); its cost is spent, whatever the budget says. */
export const onStageFinished = (state: RunState, event: StageFinished): E.Either<Rejection, RunState> => {
  const checks = [inRoundInProgress(state, event), wasRunning(state, event), ranBy(event)];
  for (const check of checks) if (E.isLeft(check)) return check;
  const { round, stage, outputSha, cost, runner } = event.data;
  if (!/^[0-9a-f]{64}$/.test(outputSha)) {
    return fail(
      'empty-field',
      `stage.finished outputSha ${JSON.stringify(outputSha)} is not the SHA-256 (64 hex) of an archived output`,
      ['outputSha'],
    );
  }
  return E.right({
    ...state,
    stages: { ...state.stages, running: null, finished: [...state.stages.finished, stage] },
    spent: addCost(state.spent, cost),
    costs: push(state.costs, { round, stage, runner, outcome: 'finished', cost }),
  });
};

/** `stage.failed`: not kept, so that stage runs again; stages that finished before it stay finished. */
export const onStageFailed = (state: RunState, event: StageFailed): E.Either<Rejection, RunState> => {
  const checks = [inRoundInProgress(state, event), wasRunning(state, event), ranBy(event)];
  for (const check of checks) if (E.isLeft(check)) return check;
  const { round, stage, reason, cost, runner } = event.data;
  if (isBlank(reason))
    return fail('empty-field', 'stage.failed reason is empty: say why the stage failed', ['reason']);
  return E.right({
    ...state,
    stages: {
      ...state.stages,
      running: null,
      failures: { ...state.stages.failures, [stage]: (state.stages.failures[stage] ?? 0) + 1 },
    },
    spent: addCost(state.spent, cost),
    costs: push(state.costs, { round, stage, runner, outcome: 'failed', cost }),
  });
};
