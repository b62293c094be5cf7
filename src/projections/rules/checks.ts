import * as E from '#either';
import type { CheckResult, ChecksRecorded, ChecksRecordedData, RoundRecorded } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import type { Policy } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import type { RunState } from '../state.js';
import { boundToNextRound } from './binding.js';
import { acceptingRounds } from './lifecycle.js';
import { endedWithoutReport } from './round-end.js';
import { type Check, fail, isBlank, ok } from './rule-answer.js';

/** The required checks of a policy: none when it names no `checks` (every log written before them). */
export const requiredChecksOf = (policy: Policy): ReadonlyArray<string> => policy.checks?.required ?? [];

/** The checks recorded on this round's input, or null: checks count only for the bytes they ran on. */
export const checksOn = (state: RunState, round: number, inputSha: string): ChecksRecordedData | null =>
  state.checks !== null && state.checks.round === round && state.checks.inputSha === inputSha
    ? state.checks
    : null;

/** Whether a policy lets this check be skipped (or not run at all). */
const mayBeSkipped = (policy: Policy, name: string): boolean =>
  policy.checks?.expectedSkips.includes(name) === true;

/**
 * The recorded checks that keep a required check from passing: it failed, or it was skipped and
 * is no expected skip. A name CI reports twice (two workflows with one job name) is judged by
 * every entry, so one passing run of it never hides a failing one.
 */
export const requiredFailures = (policy: Policy, checks: ReadonlyArray<CheckResult>): CheckResult[] => {
  const required = requiredChecksOf(policy);
  return checks.filter(
    (c) =>
      required.includes(c.name) &&
      (c.state === 'failed' || (c.state === 'skipped' && !mayBeSkipped(policy, c.name))),
  );
};

/**
 * The required checks the record does not hold at all and that may not be skipped. Not reported
 * yet is the usual reason (CI has not started it): the record is refused so it can be taken again
 * when CI is done, rather than guessed at. An expected skip may be absent: a workflow filtered out
 * by the paths a change touches never reports.
 */
export const missingRequired = (policy: Policy, checks: ReadonlyArray<CheckResult>): string[] =>
  requiredChecksOf(policy).filter(
    (name) => !mayBeSkipped(policy, name) && !checks.some((c) => c.name === name),
  );

/** The optional checks that failed: noted in the state and the trail, never `ci_failed`. */
export const optionalFailures = (policy: Policy, checks: ReadonlyArray<CheckResult>): CheckResult[] =>
  checks.filter((c) => c.state === 'failed' && policy.checks?.optional.includes(c.name) === true);

const linked = (c: CheckResult): string => (c.url === undefined ? c.name : `${c.name} (${c.url})`);

/** `required check test (https://…) failed`: what ended the round, as its reason and the feedback. */
export const describeRequiredFailure = (c: CheckResult): string =>
  `required check ${linked(c)} ${c.state === 'failed' ? 'failed' : 'was skipped, and it is not an expected skip'}`;

/**
 * `checks.recorded`: the project's CI checks as they finished on the input captured for the round
 * in progress, bound like every event of the round (`wrong-round`, `no-revision`, `wrong-input`).
 * Every check is named; every required check is in the record unless it may be skipped
 * (`missing-check`). A required check that failed, or was skipped without being an expected skip,
 * ends the round `ci_failed` exactly as `round.ended` does, its reason naming each such check and
 * its link; otherwise the checks are kept for this input and the round goes on. Recorded again
 * for the same input while the round is in progress, the latest record stands (CI re-ran): only
 * records in which every required check passed can be replaced, since any other ends the round.
 */
export const onChecksRecorded = (state: RunState, event: ChecksRecorded): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, inputSha, checks } = event.data;
  const capture = boundToNextRound(state, run.right, { round, inputSha });
  if (E.isLeft(capture)) return capture;
  for (const [i, c] of checks.entries()) {
    if (isBlank(c.name))
      return fail('empty-field', `checks[${i}].name is empty: a check is recorded by the name CI gives it`, [
        'checks',
        i,
        'name',
      ]);
  }
  const { policy } = run.right;
  const missing = missingRequired(policy, checks);
  if (missing.length > 0) {
    return fail(
      'missing-check',
      `required check(s) ${missing.join(', ')} not among the ${checks.length} check(s) recorded for round ${round}'s input: CI has not reported them yet? record the checks again once it has`,
      ['checks'],
      { missing },
      stepTo('checks', run.right.runId),
    );
  }
  const kept: RunState = { ...state, checks: event.data };
  const failures = requiredFailures(policy, checks);
  if (failures.length === 0) return E.right(kept);
  return E.right(endedWithoutReport(kept, { round, result: 'ci_failed', failedChecks: failures }));
};

/**
 * Under a policy with required checks, a round's report comes after its checks: they are recorded
 * on its captured input first (`clearance checks`), so a failing CI gets a diagnosis instead of a
 * review, and the gate always has the checks of the input it approves. Judged after every other
 * rule of the report, so a report that is wrong in itself is told that first.
 */
export const checksRecordedBefore = (state: RunState, event: RoundRecorded): Check => {
  const policy = state.run?.policy;
  if (policy === undefined || requiredChecksOf(policy).length === 0) return ok;
  const { round, inputSha } = event.data;
  if (checksOn(state, round, inputSha) !== null) return ok;
  return fail(
    'checks-not-recorded',
    `no CI checks were recorded for round ${round}'s input ${inputSha}, and the policy requires ${requiredChecksOf(policy).join(', ')}: record them first, then the report`,
    ['round'],
    undefined,
    stepTo('checks', state.run?.runId),
  );
};
