import * as E from '#either';
import type { CheckResult, RoundEnded, RoundEndResult } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import { maxRoundsOf, NO_STAGES, type RoundTally, type RunState } from '../state.js';
import { push } from '../vec.js';
import { touchedBy } from './capture.js';
import { acceptingRounds } from './lifecycle.js';
import { forNextRound } from './next-round.js';
import { fail, isBlank } from './rule-answer.js';
import { deriveStatus } from './status.js';

/** A round without a report changes no finding: the trend shows it flat, with the files its capture changed. */
const unchangedTally = (state: RunState): RoundTally => ({
  opened: 0,
  fixed: 0,
  withdrawn: 0,
  reopened: 0,
  deferred: 0,
  stillOpen: state.findings.open,
  blockingOpen: state.findings.openBlocking,
  filesChanged: state.capture === null ? null : touchedBy(state.capture).size,
});

/**
 * `round.ended`: a round that ends without a complete report — `none` (nothing could be
 * reviewed), `ci_failed` (the project's CI failed; the diagnosis is the feedback), `partial` (the
 * budget ran out or a reviewer handed in nothing, with no report). It says why, it counts toward
 * the cap, and it can never make the run converge.
 */
export const onRoundEnded = (state: RunState, event: RoundEnded): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, result, reason } = event.data;
  const inOrder = forNextRound(
    state,
    round,
    (next) => `round.ended for round ${round}, but the round in progress is ${next}`,
  );
  if (E.isLeft(inOrder)) return inOrder;
  if (isBlank(reason))
    return fail('empty-field', `a round that ends ${result} must say why (reason is empty)`, ['reason']);
  return E.right(endedWithoutReport(state, { round, result, reason }));
};

/**
 * The round in progress ends without a report: with the reason the event gave, or (a record of CI
 * checks) with the required checks that did not pass, which are its reason. Every open finding
 * carries forward through it, derived from `outcomes` (views/finding-history.ts), not copied.
 */
export const endedWithoutReport = (
  state: RunState,
  ended: Readonly<{ round: number; result: RoundEndResult }> &
    (Readonly<{ reason: string }> | Readonly<{ failedChecks: ReadonlyArray<CheckResult> }>),
): RunState => ({
  ...state,
  status: deriveStatus(maxRoundsOf(state), ended.round, state.findings, ended.result),
  round: ended.round,
  capture: null,
  failedAttempts: 0,
  lastFailure: null,
  stages: NO_STAGES,
  outcomes: push(state.outcomes, {
    round: ended.round,
    result: ended.result,
    ...('reason' in ended ? { reason: ended.reason } : { reason: null, failedChecks: ended.failedChecks }),
    tally: unchangedTally(state),
  }),
  // what was handed in for this round can never close it now
  contributions: [],
  absent: [],
});
