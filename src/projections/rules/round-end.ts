import * as E from 'fp-ts/lib/Either.js';
import type { RoundEnded } from '../../events/event.js';
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
 * budget ran out or an expert handed in nothing, with no report). It says why, it counts toward
 * the cap, and it can never make the run converge.
 */
export const endRound = (state: RunState, event: RoundEnded): E.Either<Rejection, RunState> => {
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
  // every open finding carries forward through it: derived from `outcomes` (views/finding-history.ts), not copied
  return E.right({
    ...state,
    status: deriveStatus(maxRoundsOf(state), round, state.findings, result),
    round,
    capture: null,
    failedAttempts: 0,
    lastFailure: null,
    stages: NO_STAGES,
    outcomes: push(state.outcomes, { round, result, reason, tally: unchangedTally(state) }),
    // what was handed in for this round can never close it now
    contributions: [],
    absent: [],
  });
};
