import * as E from '#either';
import type { RoundFailed } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import type { RunState } from '../state.js';
import { boundToNextRound } from './binding.js';
import { acceptingRounds } from './lifecycle.js';

/**
 * A failed attempt at collecting a round's report is recorded honestly and changes nothing else:
 * the round stays open for another attempt and no finding moves.
 */
export const onRoundFailed = (state: RunState, event: RoundFailed): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const bound = boundToNextRound(state, run.right, event.data);
  if (E.isLeft(bound)) return bound;
  const { round, reason, detail } = event.data;
  return E.right({
    ...state,
    failedAttempts: state.failedAttempts + 1,
    lastFailure: { round, reason, detail },
  });
};
