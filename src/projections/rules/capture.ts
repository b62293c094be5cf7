import * as E from '#either';
import type { RevisionCaptured, RevisionCapturedData } from '../../events/event.js';
import { stepTo } from '../../events/next-step.js';
import { sameInputRoundsOf } from '../../events/policy.js';
import type { Rejection } from '../../events/rejection.js';
import { NO_STAGES, type Run, type RunState } from '../state.js';
import { acceptingRounds } from './lifecycle.js';
import { forNextRound } from './next-round.js';
import { type Check, fail, isBlank, ok } from './rule-answer.js';

/** The files a capture touched: those it lists, and those a rename moved a file to. */
export const touchedBy = (capture: RevisionCapturedData): ReadonlySet<string> =>
  new Set([...capture.touchedFiles, ...capture.renames.map((r) => r.to)]);

/**
 * Whether a capture holds the bytes another did: the same `inputSha`, or for two git captures the
 * same tree (and the same artifact, when there is one). A new commit of an unchanged tree, such
 * as a message-only amend, is the same bytes.
 */
export const sameBytes = (a: RevisionCapturedData, b: RevisionCapturedData): boolean =>
  a.inputSha === b.inputSha || (a.tree !== undefined && a.tree === b.tree && a.artifactSha === b.artifactSha);

/**
 * No round reviews unchanged bytes unless it says so: a capture of the input the last recorded
 * round reviewed is refused (`unchanged-input`) without `sameInput`, and the run holds at most the
 * policy's `sameInputRounds` such rounds (`same-input-limit`). `sameInput` on a changed input is
 * refused too: the record would say a thing that is not so.
 */
const newBytesOrASaidReason = (state: RunState, run: Run, capture: RevisionCapturedData): Check => {
  const reviewed = state.reviewed;
  const unchanged = reviewed !== null && sameBytes(capture, reviewed);
  const { sameInput } = capture;
  if (!unchanged) {
    if (sameInput === undefined) return ok;
    return fail(
      'inconsistent-event',
      `the capture for round ${capture.round} says it reviews the same input again, but its input ${capture.inputSha} is not what round ${state.round} reviewed${reviewed === null ? ' (no round has been reviewed yet)' : ` (${reviewed.inputSha})`}: capture it as a new input, without sameInput`,
      ['sameInput'],
      undefined,
      stepTo('capture', run.runId),
    );
  }
  if (sameInput === undefined) {
    return fail(
      'unchanged-input',
      `the input captured for round ${capture.round} (${capture.inputSha}) is the one round ${state.round} reviewed: change something to review, or review the same bytes again as a recorded choice, saying why`,
      ['inputSha'],
      undefined,
      stepTo('capture', run.runId, { sameInput: true, reason: true }),
    );
  }
  if (isBlank(sameInput.reason)) {
    return fail(
      'empty-field',
      'revision.captured sameInput.reason is empty: say why the same input is reviewed again',
      ['sameInput', 'reason'],
    );
  }
  const allowed = sameInputRoundsOf(run.policy);
  if (state.sameInputRounds >= allowed) {
    return fail(
      'same-input-limit',
      `policy ${run.policy.name} allows ${allowed} round(s) on unchanged input (sameInputRounds) and run ${run.runId} has had ${state.sameInputRounds}: change the input under review`,
      ['sameInput'],
    );
  }
  return ok;
};

/**
 * A capture says what round `round + 1` will review (where the open findings' lines went since the
 * last reviewed input is rules/line-moves.ts's). Captured again before that round is recorded
 * (another push), the latest capture wins. A final run takes no captures.
 */
export const onRevisionCaptured = (
  state: RunState,
  event: RevisionCaptured,
): E.Either<Rejection, RunState> => {
  const run = acceptingRounds(state);
  if (E.isLeft(run)) return run;
  const { round, inputSha } = event.data;
  const inOrder = forNextRound(
    state,
    round,
    (next) => `revision captured for round ${round}, but the next round of run ${run.right.runId} is ${next}`,
  );
  if (E.isLeft(inOrder)) return inOrder;
  if (isBlank(inputSha))
    return fail('empty-field', 'revision.captured inputSha is empty: it must name the input', ['inputSha']);
  const fresh = newBytesOrASaidReason(state, run.right, event.data);
  if (E.isLeft(fresh)) return fresh;
  // another push is another input: the round's stages start over (its spending stays on the record)
  const recapture = state.capture?.inputSha === inputSha;
  return E.right({ ...state, capture: event.data, ...(recapture ? {} : { stages: NO_STAGES }) });
};
