import * as E from 'fp-ts/lib/Either.js';
import type { RoundEnded } from '../../events/event.js';
import type { Rejection } from '../../events/rejection.js';
import { type Finding, maxRoundsOf, NO_STAGES, type RunState } from '../state.js';
import { fail, isBlank } from './check.js';
import { acceptingRounds } from './lifecycle.js';
import { deriveStatus } from './status.js';

/** Every open finding carries forward through a round that reviewed nothing. */
export const carryForward = (
  findings: Readonly<Record<string, Finding>>,
  round: number,
): Readonly<Record<string, Finding>> => {
  const next: Record<string, Finding> = {};
  for (const [id, f] of Object.entries(findings)) {
    next[id] =
      f.status === 'open' ? { ...f, history: [...f.history, { round, how: 'carried', status: 'open' }] } : f;
  }
  return next;
};

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
  const next = state.round + 1;
  if (round !== next)
    return fail('wrong-round', `round.ended for round ${round}, but the round in progress is ${next}`, [
      'round',
    ]);
  if (isBlank(reason))
    return fail('empty-field', `a round that ends ${result} must say why (reason is empty)`, ['reason']);
  const findings = carryForward(state.findings, round);
  return E.right({
    ...state,
    status: deriveStatus(maxRoundsOf(state), round, findings, result),
    round,
    capture: null,
    findings,
    failedAttempts: 0,
    lastFailure: null,
    stages: NO_STAGES,
    outcomes: [...state.outcomes, { round, result, reason }],
  });
};
