import type { Cost } from '@clearance/fold/internal/events/policy.js';
import { tokenCountRejection } from '@clearance/fold/internal/events/token-count.js';
import { refusal } from '../errors.js';
import { appendCommand, archiveForEvent } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import type { ResultOf, StageOutput } from './schemas/results.js';

/** What happened to a stage of the round in progress: exactly one of these. */
export type StageStep =
  | Readonly<{ kind: 'start'; commands?: ReadonlyArray<string>; estimate?: Cost }>
  | Readonly<{ kind: 'finish'; output: Uint8Array; cost?: Cost; runner?: string }>
  | Readonly<{ kind: 'fail'; reason: string; cost?: Cost; runner?: string }>;

export type StageInput = Readonly<{ runId: string; stage: string; step: StageStep }>;

export type StageResult = ResultOf<typeof StageOutput>;

/**
 * A stage's cost or estimate is someone's input (a flag, an MCP argument, a library caller): its
 * `tokens` must be a whole number (`invalid-cost`), checked here, the door every stage passes,
 * before anything is archived or appended.
 */
const refuseFractionalTokens = (cost: Cost | undefined, key: 'cost' | 'estimate'): void => {
  const refused = cost === undefined ? undefined : tokenCountRejection(cost, `stage ${key}`, [key]);
  if (refused !== undefined) throw refusal(refused);
};

/**
 * Record a stage of the round in progress (always the run's round in progress, read under the
 * lock): declared when it starts (its commands and estimate checked against consent and budget),
 * finished with its output archived first, or failed (it will run again).
 */
export const stage = async (ctx: OperationContext, input: StageInput): Promise<StageResult> => {
  const { runId, step } = input;
  const actor = actorOf(ctx);
  const runner = (step.kind === 'start' ? undefined : step.runner) ?? ctx.by;
  if (step.kind === 'start') {
    refuseFractionalTokens(step.estimate, 'estimate');
    const started = {
      stage: input.stage,
      commands: step.commands ?? [],
      ...(step.estimate === undefined ? {} : { estimate: step.estimate }),
    };
    const result = await appendCommand(ctx.store, runId, { kind: 'start-stage', stage: started }, actor);
    return {
      runId,
      round: result.folded.state.round + 1,
      stage: input.stage,
      event: 'stage.started',
      seq: result.appended[0]?.seq ?? null,
    };
  }
  const cost = step.cost ?? {};
  refuseFractionalTokens(cost, 'cost');
  if (step.kind === 'finish') {
    // the output is on disk, fsynced, before any event names it
    const outputSha = await archiveForEvent(ctx.store, runId, step.output);
    const finished = { stage: input.stage, runner, cost, outputSha };
    const result = await appendCommand(ctx.store, runId, { kind: 'finish-stage', stage: finished }, actor);
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
  const failed = { stage: input.stage, reason: step.reason, runner, cost };
  const result = await appendCommand(ctx.store, runId, { kind: 'fail-stage', stage: failed }, actor);
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
