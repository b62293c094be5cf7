import { type NextStep, stepTo } from '../../events/next-step.js';
import { checksOn, requiredChecksOf } from '../rules/checks.js';
import { depleted, overrun } from '../rules/cost-bounds.js';
import { maxRoundsOf, type RunState, type RunStatus } from '../state.js';
import { type ReproductionToRun, reproductionsPending } from './reproductions.js';
import { blockedReasonOf, describeStall } from './stall.js';

/** The driver's one question after any crash or restart: what now? Its next move. */
export type NextMove =
  | Readonly<{ action: 'open'; why: string }>
  | Readonly<{ action: 'capture'; round: number; why: string }>
  | Readonly<{
      action: 'record-checks';
      round: number;
      inputSha: string;
      /** the checks the policy requires to pass on this input */
      required: ReadonlyArray<string>;
      why: string;
    }>
  | Readonly<{
      action: 'rerun-reproductions';
      round: number;
      inputSha: string;
      reproductions: ReadonlyArray<ReproductionToRun>;
      why: string;
    }>
  | Readonly<{
      action: 'run-stage';
      round: number;
      stage: string;
      attempt: number;
      resume: boolean;
      why: string;
    }>
  | Readonly<{ action: 'end-partial'; round: number; why: string }>
  | Readonly<{
      action: 'wait-report';
      round: number;
      inputSha: string;
      result: 'complete' | 'partial';
      why: string;
    }>
  | Readonly<{
      action: 'stop';
      status: RunStatus;
      why: string;
      /** what can still happen: a new run for new commits, or a person's extension or ruling */
      next: NextStep;
    }>;

/**
 * Read off the state what the driver does next. Under a policy with required checks, a captured
 * input's CI checks come first: a failing CI ends the round with its diagnosis before any review
 * work is spent on it. A re-review starts by re-running the last
 * review's reproductions on the captured input, each outcome recorded. A finished stage is never run again (its output is
 * kept); a stage that was running when the driver died is run again; a failed one, too.
 */
export const nextMove = (state: RunState): NextMove => {
  const run = state.run;
  if (run === null) return { action: 'open', why: 'there is no run: open it' };
  const round = state.round + 1;
  if (state.status === 'converged') {
    return {
      action: 'stop',
      status: 'converged',
      why:
        state.convergedBy === null
          ? `converged at round ${state.round}`
          : `converged by ruling of ${state.convergedBy.by}`,
      next: stepTo('open', run.runId, { newRun: true }),
    };
  }
  if (state.status === 'blocked') {
    return {
      action: 'stop',
      status: 'blocked',
      why:
        state.stall !== null
          ? `blocked early at round ${state.round}: ${blockedReasonOf(state)}, ${describeStall(state, state.stall)}; only a person can go on, by ruling on the findings or extending the run`
          : `blocked at round ${state.round}, the cap of ${maxRoundsOf(state)}: only a person can go on, by ruling on the findings or extending the run`,
      next: { ...stepTo('rule', run.runId), or: stepTo('extend', run.runId) },
    };
  }
  if (state.capture === null)
    return { action: 'capture', round, why: `round ${round} has no captured input yet` };
  const required = requiredChecksOf(run.policy);
  if (required.length > 0 && checksOn(state, round, state.capture.inputSha) === null) {
    return {
      action: 'record-checks',
      round,
      inputSha: state.capture.inputSha,
      required,
      why: `record the CI checks of round ${round}'s input when they have finished (required: ${required.join(', ')}): a required check that fails ends the round ci_failed, before any review`,
    };
  }
  const reproductions = reproductionsPending(state);
  if (reproductions.length > 0) {
    return {
      action: 'rerun-reproductions',
      round,
      inputSha: state.capture.inputSha,
      reproductions,
      why: `re-run ${reproductions.length} reproduction(s) of round ${state.round} on round ${round}'s input and record each outcome`,
    };
  }
  const { policy } = run;
  const { running, finished, failures } = state.stages;
  if (running !== null) {
    return {
      action: 'run-stage',
      round,
      stage: running,
      attempt: (failures[running] ?? 0) + 1,
      resume: true,
      why: `stage ${running} of round ${round} started but never finished (a crash?): run it again`,
    };
  }
  const pending = policy.stages.find((s) => !finished.includes(s));
  if (pending !== undefined) {
    const spent = depleted(policy.budget, state.spent);
    if (spent !== null) {
      return {
        action: 'end-partial',
        round,
        why: `the budget is spent (${spent}): round ${round} can only end partial`,
      };
    }
    const attempt = (failures[pending] ?? 0) + 1;
    const kept = finished.length === 0 ? '' : ` (kept: ${finished.join(', ')})`;
    return {
      action: 'run-stage',
      round,
      stage: pending,
      attempt,
      resume: false,
      why: `run stage ${pending} of round ${round}${attempt > 1 ? `, attempt ${attempt}` : ''}${kept}`,
    };
  }
  const over = overrun(policy.budget, state.spent);
  return {
    action: 'wait-report',
    round,
    inputSha: state.capture.inputSha,
    result: over === null ? 'complete' : 'partial',
    why:
      over === null
        ? `every stage of round ${round} finished: wait for its report`
        : `round ${round}'s stages finished past the budget (${over}): record its report as partial`,
  };
};
