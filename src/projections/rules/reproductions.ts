import * as E from '#either';
import type { ReproductionRecorded } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import type { Rejection } from '../../events/rejection.js';
import type { Decision } from '../../events/report-types.js';
import type { Rerun, RunState } from '../state.js';
import { at, push } from '../vec.js';
import { boundToNextRound } from './binding.js';
import { namedFinding } from './finding-ref.js';
import { acceptingRounds } from './lifecycle.js';
import { type Check, fail, ok, shortId } from './rule-answer.js';

/**
 * The reproductions re-run on one round's input, newest first. Re-runs are appended in round order
 * (each is bound to the round in progress), so the walk stops at the first older round.
 */
export const rerunsOn = (state: RunState, round: number, inputSha: string): ReadonlyArray<Rerun> => {
  const found: Rerun[] = [];
  for (let i = state.reruns.size - 1; i >= 0; i -= 1) {
    const rerun = at(state.reruns, i) as Rerun;
    if (rerun.round < round) break;
    if (rerun.round === round && rerun.inputSha === inputSha) found.push(rerun);
  }
  return found;
};

/**
 * `reproduction.recorded`: a re-review re-ran a finding's reproduction on the input captured for
 * the round in progress. It names a finding of the run (by its full id) that carries a
 * reproduction, and each finding's reproduction has one outcome per input: a retry of the very
 * same event is "already recorded" (rules/retry.ts), another outcome for it is refused.
 */
export const onReproductionRecorded = (
  state: RunState,
  event: ReproductionRecorded,
): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, inputSha, findingId, outcome, outputSha } = event.data;
  const capture = boundToNextRound(state, run.right, { round, inputSha });
  if (E.isLeft(capture)) return capture;
  const named = namedFinding(state.findings, findingId, 'reproduction.recorded findingId', ['findingId']);
  if (E.isLeft(named)) return named;
  if (named.right.reproduction === null) {
    return fail(
      'no-reproduction',
      `finding ${shortId(findingId)} (${named.right.file}) carries no reproduction: only a finding whose candidate gave one can have it re-run (the run's reproductions list them)`,
      ['findingId'],
      undefined,
      stepTo('reproductions', run.right.runId),
    );
  }
  if (outputSha !== undefined && !/^[0-9a-f]{64}$/.test(outputSha)) {
    return fail(
      'empty-field',
      `reproduction.recorded outputSha ${JSON.stringify(outputSha)} is not the SHA-256 (64 hex) of an archived output`,
      ['outputSha'],
    );
  }
  const earlier = rerunsOn(state, round, inputSha).find((r) => r.findingId === findingId);
  if (earlier !== undefined) {
    return fail(
      'duplicate-reproduction',
      `the reproduction of finding ${shortId(findingId)} was already re-run on round ${round}'s input ${inputSha} (${earlier.outcome}): one outcome per finding and input; capture a new input to run it again`,
      ['findingId'],
    );
  }
  return E.right({
    ...state,
    reruns: push(state.reruns, { round, inputSha, findingId, outcome, outputSha: outputSha ?? null }),
  });
};

/**
 * A `fixed` decision is refused for a finding whose reproduction was re-run on this very input and
 * still fails: the record says the problem is there. Applies to a round report, a reviewer's
 * contribution, and a merged round alike.
 */
export const fixedOnlyIfReproductionPasses = (
  state: RunState,
  round: number,
  inputSha: string,
  decisions: ReadonlyArray<Decision>,
): Check => {
  const failing = rerunsOn(state, round, inputSha).filter((r) => r.outcome === 'still-fails');
  if (failing.length === 0) return ok;
  for (const [i, d] of decisions.entries()) {
    if (d.status !== 'fixed') continue;
    if (failing.some((r) => r.findingId === d.id)) {
      return fail(
        'reproduction-still-fails',
        `decisions[${i}] says finding ${shortId(d.id)} is fixed, but its reproduction was re-run on this input (${inputSha}) and still fails: say open, with evidence, or fix it and capture a new input`,
        ['decisions', i, 'status'],
      );
    }
  }
  return ok;
};
