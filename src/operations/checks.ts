import { checksRejection } from '@clearance/fold/internal/events/ci-check.js';
import type { CheckResult, CheckState } from '@clearance/fold/internal/events/event.js';
import {
  optionalFailures,
  requiredChecksOf,
  requiredFailures,
} from '@clearance/fold/internal/projections/rules/checks.js';
import { last } from '@clearance/fold/internal/projections/vec.js';
import { outcomeReason } from '@clearance/fold/internal/render/outcome-reason.js';
import { refusal } from '../errors.js';
import { appendCommand } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import type { ChecksOutput, ResultOf } from './schemas/results.js';

export type ChecksInput = Readonly<{
  runId: string;
  /** every check CI reported on the captured input, as it finished */
  checks: ReadonlyArray<Readonly<{ name: string; state: CheckState; url?: string | undefined }>>;
  /** where they came from, as an error names it (default `checks`) */
  source?: string;
}>;

export type ChecksResult = ResultOf<typeof ChecksOutput>;

/** A check as the event holds it: no `url` key at all when it has none. */
const asRecorded = (c: ChecksInput['checks'][number]): CheckResult =>
  c.url === undefined ? { name: c.name, state: c.state } : { name: c.name, state: c.state, url: c.url };

/**
 * Record the project's CI checks on the input captured for the round in progress. Under a policy
 * with required checks, one that failed (or was skipped, and may not be) ends the round `ci_failed`
 * with a reason naming each and its link: that reason is the author's feedback. Otherwise the
 * checks are kept for this input, and the round goes on to its report.
 */
export const checks = async (ctx: OperationContext, input: ChecksInput): Promise<ChecksResult> => {
  const given = input.checks.map(asRecorded);
  const actor = actorOf(ctx);
  // each name and link is someone's input (a flag, a file gh wrote, an MCP argument): checked here,
  // the door every record passes (`invalid-text`); every rule is evolve's
  const refused = checksRejection(given, input.source ?? 'checks');
  if (refused !== undefined) throw refusal(refused);
  const result = await appendCommand(ctx.store, input.runId, { kind: 'record-checks', checks: given }, actor);
  const { state } = result.folded;
  const recorded = state.checks;
  const policy = state.run?.policy;
  if (recorded === null || policy === undefined)
    throw new Error('checks: the append succeeded but the state holds no checks');
  const failed = requiredFailures(policy, recorded.checks);
  const ended = failed.length > 0 ? last(state.outcomes) : undefined;
  return {
    runId: input.runId,
    round: recorded.round,
    inputSha: recorded.inputSha,
    checks: recorded.checks,
    result: failed.length > 0 ? 'ci_failed' : 'recorded',
    failed,
    noted: optionalFailures(policy, recorded.checks),
    required: requiredChecksOf(policy),
    reason: ended === undefined ? null : outcomeReason(ended),
    status: state.status,
    seq: result.appended[0]?.seq ?? null,
    alreadyRecorded: result.alreadyRecorded,
  };
};
