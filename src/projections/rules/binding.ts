import * as E from 'fp-ts/lib/Either.js';
import type { RevisionCapturedData } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import type { Run, RunState } from '../state.js';
import { fail } from './check.js';

/**
 * A report (or a failed attempt) counts only for the run's next round and only against the input
 * captured for that round: a stale or foreign artifact never satisfies a new request.
 */
export const boundToNextRound = (
  state: RunState,
  run: Run,
  offered: Readonly<{ runId?: string; round: number; inputSha: string }>,
): E.Either<Rejection, RevisionCapturedData> => {
  const next = state.round + 1;
  if (offered.runId !== undefined && offered.runId !== run.runId) {
    return fail('wrong-run', `runId ${JSON.stringify(offered.runId)} is not this run (${run.runId})`, [
      'runId',
    ]);
  }
  if (offered.round !== next) {
    return fail(
      'wrong-round',
      `round ${offered.round} offered, but the next round of run ${run.runId} is ${next}: rounds are recorded once each, in order`,
      ['round'],
    );
  }
  const capture = state.capture;
  if (capture === null) {
    return fail(
      'no-revision',
      `no revision was captured for round ${next}: capture the input (clearance capture) before recording it`,
      ['round'],
    );
  }
  if (offered.inputSha !== capture.inputSha) {
    return fail(
      'wrong-input',
      `inputSha ${offered.inputSha} is not the input captured for round ${next} (${capture.inputSha}): the report reviewed other bytes`,
      ['inputSha'],
    );
  }
  return E.right(capture);
};
