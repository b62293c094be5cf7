import type { NextStep as FoldStep } from '@clearance/fold/internal/events/next-step.js';
import { isRunId } from '@clearance/fold/internal/events/run-id.js';
import type { ErrorCode } from '../errors.js';
import type { ToolName } from './tools.js';

/**
 * What an agent does after a refusal: a tool to call and its arguments, or word that only a person
 * can act. Never a shell command: an agent reads every error as its next instruction, and the
 * command line's `clearance rule`, `extend` and `verify` are a person's.
 *
 * A refusal that names its next step (the fold's rules, a missing run) is said as this door's tool;
 * the table below covers the failures that name none (a lock, a store, a wait, a field).
 */
export type NextStep =
  | Readonly<{ tool: ToolName; arguments: Readonly<Record<string, unknown>>; why: string }>
  | Readonly<{ person: string }>;

/** A step of the loop, as any door would name it; `fix` and `retry` are the same call again. */
type Action =
  | 'open'
  | 'capture'
  | 'checks'
  | 'next'
  | 'status'
  | 'explain'
  | 'fix'
  | 'retry'
  | 'ruling'
  | 'operator';

/** `internal` is the one code no `ClearanceError` carries: a bug, for whoever runs the server. */
const ACTION_BY_CODE: Partial<Readonly<Record<ErrorCode | 'internal', Action>>> = {
  'run-missing': 'open',
  'not-opened': 'open',
  'run-exists': 'next',
  'already-opened': 'next',
  'run-final': 'status',
  'no-revision': 'capture',
  'wrong-round': 'next',
  'wrong-run': 'next',
  'wrong-input': 'next',
  'unchanged-input': 'next',
  'same-input-limit': 'ruling',
  'report-exists': 'next',
  'seq-mismatch': 'status',
  'lock-timeout': 'retry',
  'lock-compromised': 'retry',
  timeout: 'retry',
  aborted: 'retry',
  incomplete: 'retry',
  malformed: 'retry',
  'no-reproduction': 'next',
  'duplicate-reproduction': 'next',
  'checks-not-recorded': 'checks',
  'missing-check': 'checks',
  'stages-unfinished': 'next',
  'stage-out-of-order': 'next',
  'stage-repeated': 'next',
  'stage-not-started': 'next',
  'budget-exhausted': 'ruling',
  'not-blocked': 'explain',
  'invalid-extension': 'ruling',
  'unsigned-ruling': 'ruling',
  'no-review': 'next',
  'not-converged': 'explain',
  unverifiable: 'capture',
  'artifact-changed': 'capture',
  'head-moved': 'capture',
  'checks-not-passed': 'checks',
  integrity: 'operator',
  'store-unavailable': 'operator',
  'store-schema': 'operator',
  'store-unusable': 'operator',
  'no-space': 'operator',
  'read-only': 'operator',
  'permission-denied': 'operator',
  'io-error': 'operator',
  'unsafe-path': 'operator',
  'key-unusable': 'operator',
  internal: 'operator',
};

/** The step a failure's code calls for; any other refusal is of what was sent: fix the fields it names. */
const actionOf = (code: string): Action => ACTION_BY_CODE[code as ErrorCode | 'internal'] ?? 'fix';

const WHY: Readonly<Record<Exclude<Action, 'fix' | 'retry' | 'ruling' | 'operator'>, string>> = {
  open: 'open the run first',
  capture: 'capture the input the next round reviews',
  checks: "record CI's checks on the captured input",
  next: 'ask what the loop does now',
  status: 'read where the run stands',
  explain: 'read why the run is where it is',
};

/**
 * The step after a failure of `tool` called with `args`: the loop's own tool with the run id, the
 * same call again, or a person. Only a valid run id is repeated: the agent has its arguments, and
 * a refused value is never echoed.
 */
export const nextStepOf = (
  code: string,
  tool: ToolName,
  args: Readonly<Record<string, unknown>>,
  named?: FoldStep,
): NextStep => {
  if (named !== undefined) return asTool(named);
  const runId = typeof args.runId === 'string' && isRunId(args.runId) ? { runId: args.runId } : {};
  const action = actionOf(code);
  switch (action) {
    case 'fix':
      return { tool, arguments: runId, why: `call ${tool} again with the fields named fixed` };
    case 'retry':
      return { tool, arguments: runId, why: `call ${tool} again: nothing was written` };
    case 'ruling':
      return { person: PERSON };
    case 'operator':
      return { person: "only a person can act: the server's store needs its operator" };
    default:
      return { tool: action, arguments: runId, why: WHY[action] };
  }
};

const PERSON =
  "only a person can act: a ruling on a finding or more rounds past the cap is a named person's decision, never a tool call";

/**
 * A step the fold named, as this server's tool and its arguments: the run it names (a grammar-checked
 * id, from the state, never an argument echoed back), and what the step needs said in `why`, since
 * only the agent knows the values (a reason, a file).
 */
const asTool = (step: FoldStep): NextStep => {
  const runId = step.runId !== undefined && isRunId(step.runId) ? { runId: step.runId } : {};
  const args = step.args ?? {};
  switch (step.action) {
    case 'open':
      return args.newRun === true
        ? {
            tool: 'open',
            arguments: {},
            why: 'open a new run, under a new run id, for the commits this run did not review',
          }
        : { tool: 'open', arguments: runId, why: WHY.open };
    case 'capture':
      return {
        tool: 'capture',
        arguments: runId,
        why:
          args.sameInput === true
            ? 'capture the same input again as a recorded choice: give sameInput, saying why'
            : args.inputSha === true
              ? 'capture naming the input yourself: give inputSha and touched'
              : args.repo === true
                ? 'capture from the repository, so the cited files can be read: give repo'
                : WHY.capture,
      };
    case 'record':
      return args.end === 'partial'
        ? {
            tool: 'record',
            arguments: { ...runId, end: 'partial' },
            why: 'end the round partial: give reason',
          }
        : {
            tool: 'record',
            arguments: { ...runId, ...(args.partial === true ? { partial: true } : {}) },
            why:
              args.partial === true
                ? 'record the round as partial, with its report'
                : "record the round's report (the fields a refusal named, fixed)",
          };
    case 'merge':
      return {
        tool: 'record',
        arguments: { ...runId, merge: true },
        why: "close the round with its contributions' merge",
      };
    case 'contribute':
      // contributions are handed in on the command line or by collect; an agent records one report
      return step.or === undefined
        ? { person: 'a reviewer hands in a contribution on the command line; no tool takes one' }
        : asTool(step.or);
    case 'checks':
      return { tool: 'checks', arguments: runId, why: WHY.checks };
    case 'reproductions':
      return {
        tool: 'next',
        arguments: runId,
        why: 'next lists the reproductions to re-run; reproduce records each',
      };
    case 'rule':
    case 'extend':
      return { person: PERSON };
    case 'status':
      return { tool: 'status', arguments: runId, why: WHY.status };
  }
};
