import { failStage, finishStage, startStage } from '../driver/lifecycle.js';
import type { Cost } from '../events/policy.js';
import { actorOf, type OperationContext } from './context.js';

/** What happened to a stage of the round in progress: exactly one of these. */
export type StageStep =
  | Readonly<{ kind: 'start'; commands?: ReadonlyArray<string>; estimate?: Cost }>
  | Readonly<{ kind: 'finish'; output: Uint8Array; cost?: Cost; runner?: string }>
  | Readonly<{ kind: 'fail'; reason: string; cost?: Cost; runner?: string }>;

export type StageInput = Readonly<{ runId: string; stage: string; step: StageStep }>;

export type StageResult = Readonly<{
  runId: string;
  round: number;
  stage: string;
  event: 'stage.started' | 'stage.finished' | 'stage.failed';
  seq: number | null;
  /** stage.finished: the archived output */
  outputSha?: string | null;
  /** stage.finished and stage.failed: what the stage spent */
  cost?: Cost;
  /** stage.finished: the run's spending so far */
  spent?: Cost;
  /** stage.failed: why (it will run again) */
  reason?: string;
}>;

/** Record a stage of the round in progress: started (consent and budget checked), finished, or failed. */
export const stage = async (ctx: OperationContext, input: StageInput): Promise<StageResult> => {
  const { runId, step } = input;
  const actor = actorOf(ctx);
  const runner = (step.kind === 'start' ? undefined : step.runner) ?? ctx.by;
  if (step.kind === 'start') {
    const result = await startStage(
      ctx.store,
      runId,
      {
        stage: input.stage,
        commands: step.commands ?? [],
        ...(step.estimate === undefined ? {} : { estimate: step.estimate }),
      },
      actor,
    );
    return {
      runId,
      round: result.folded.state.round + 1,
      stage: input.stage,
      event: 'stage.started',
      seq: result.appended[0]?.seq ?? null,
    };
  }
  const cost = step.cost ?? {};
  if (step.kind === 'finish') {
    const result = await finishStage(
      ctx.store,
      runId,
      { stage: input.stage, output: step.output, runner, cost },
      actor,
    );
    const event = result.appended[0];
    return {
      runId,
      round: result.folded.state.round + 1,
      stage: input.stage,
      event: 'stage.finished',
      outputSha: event?.type === 'stage.finished' ? event.data.outputSha : null,
      seq: event?.seq ?? null,
      cost,
      spent: result.folded.state.spent,
    };
  }
  const result = await failStage(
    ctx.store,
    runId,
    { stage: input.stage, reason: step.reason, runner, cost },
    actor,
  );
  return {
    runId,
    round: result.folded.state.round + 1,
    stage: input.stage,
    event: 'stage.failed',
    seq: result.appended[0]?.seq ?? null,
    cost,
    reason: step.reason,
  };
};
