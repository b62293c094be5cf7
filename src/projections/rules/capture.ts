import * as E from 'fp-ts/lib/Either.js';
import type { RevisionCaptured } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import { NO_STAGES, type RunState } from '../state.js';
import { fail, isBlank } from './check.js';
import { acceptingRounds } from './lifecycle.js';

/**
 * A capture says what round `round + 1` will review. Captured again before that round is recorded
 * (another push), the latest capture wins. A final run takes no captures.
 */
export const captureRevision = (state: RunState, event: RevisionCaptured): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, inputSha } = event.data;
  const next = state.round + 1;
  if (round !== next) {
    return fail(
      'wrong-round',
      `revision captured for round ${round}, but the next round of run ${run.right.runId} is ${next}`,
      ['round'],
    );
  }
  if (isBlank(inputSha))
    return fail('empty-field', 'revision.captured inputSha is empty: it must name the input', ['inputSha']);
  // another push is another input: the round's stages start over (its spending stays on the record)
  const sameInput = state.capture?.inputSha === inputSha;
  return E.right({ ...state, capture: event.data, ...(sameInput ? {} : { stages: NO_STAGES }) });
};
