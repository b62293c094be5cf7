import type { ErrorCode } from '../errors.js';
import { isRunId } from '../events/run-id.js';
import type { ToolName } from './tools.js';

/**
 * What an agent does after a refusal: a tool to call and its arguments, or word that only a person
 * can act. Never a shell command: an agent reads every error as its next instruction, and the
 * command line's `clearance rule`, `extend` and `verify` are a person's.
 *
 * Each code's step is said here, at the MCP door, in one table, until the fold's refusals carry a
 * structured next step of their own; then `actionOf` reads that field first and this table keeps
 * only the failures the fold never sees (a lock, a store, a wait).
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
): NextStep => {
  const runId = typeof args.runId === 'string' && isRunId(args.runId) ? { runId: args.runId } : {};
  const action = actionOf(code);
  switch (action) {
    case 'fix':
      return { tool, arguments: runId, why: `call ${tool} again with the fields named fixed` };
    case 'retry':
      return { tool, arguments: runId, why: `call ${tool} again: nothing was written` };
    case 'ruling':
      return {
        person:
          "only a person can act: a ruling on a finding or more rounds past the cap is a named person's decision, never a tool call",
      };
    case 'operator':
      return { person: "only a person can act: the server's store needs its operator" };
    default:
      return { tool: action, arguments: runId, why: WHY[action] };
  }
};
