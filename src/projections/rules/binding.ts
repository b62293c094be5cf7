import * as E from '#either';
import { reportShaIfCanonical } from '../../events/canonical-json.js';
import type { RevisionCapturedData } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import type { Rejection } from '../../events/rejection.js';
import type { RoundReport } from '../../events/report-types.js';
import type { DeciderHost } from '../evolve.js';
import type { Run, RunState } from '../state.js';
import { forNextRound, nextRoundOf } from './next-round.js';
import { fail } from './rule-answer.js';

/**
 * A report (or a failed attempt) counts only for the run's next round and only against the input
 * captured for that round: a stale or foreign artifact never satisfies a new request.
 */
export const boundToNextRound = (
  state: RunState,
  run: Run,
  offered: Readonly<{ runId?: string; round: number; inputSha: string }>,
): E.Either<Rejection, RevisionCapturedData> => {
  const next = nextRoundOf(state);
  if (offered.runId !== undefined && offered.runId !== run.runId) {
    return fail('wrong-run', `runId ${JSON.stringify(offered.runId)} is not this run (${run.runId})`, [
      'runId',
    ]);
  }
  const inOrder = forNextRound(
    state,
    offered.round,
    (n) =>
      `round ${offered.round} offered, but the next round of run ${run.runId} is ${n}: rounds are recorded once each, in order`,
  );
  if (E.isLeft(inOrder)) return inOrder;
  const capture = state.capture;
  if (capture === null) {
    return fail(
      'no-revision',
      `no revision was captured for round ${next}: capture the input before recording it`,
      ['round'],
      undefined,
      stepTo('capture', run.runId),
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

/**
 * An event that carries a report (`round.recorded`, `contribution.recorded`): its round, input and
 * hash are the report's own (else clearance did not write it), the report binds to the next round
 * and the captured input, and it says it is complete. One check for both, so a round and a
 * reviewer's contribution are held to the same binding. The hash is derived again unless the host
 * reads lines whose chain it checked (`DeciderHost.reportSha`).
 */
export const carriedReportBinds = (
  state: RunState,
  run: Run,
  event: Readonly<{
    type: 'round.recorded' | 'contribution.recorded';
    data: Readonly<{ round: number; inputSha: string; reportSha: string; report: RoundReport }>;
  }>,
  host: DeciderHost = {},
): E.Either<Rejection, RevisionCapturedData> => {
  const { report } = event.data;
  if (
    event.data.round !== report.round ||
    event.data.inputSha !== report.inputSha ||
    (host.reportSha !== 'as-chained' && event.data.reportSha !== reportShaIfCanonical(report))
  ) {
    return fail(
      'inconsistent-event',
      `${event.type} round, inputSha and reportSha must be those of its report: this event was not written by clearance as it stands`,
      ['reportSha'],
    );
  }
  const capture = boundToNextRound(state, run, report);
  if (E.isLeft(capture)) return capture;
  if (report.completed !== true) {
    const what = event.type === 'round.recorded' ? 'report' : 'contribution';
    return fail(
      'not-completed',
      `the round ${report.round} ${what} says completed: ${report.completed}; only a complete report counts`,
      ['completed'],
    );
  }
  return capture;
};
