import path from 'node:path';
import { captureRound, captureWorkspace } from '../driver/capture.js';
import { ClearanceError, refusal } from '../errors.js';
import type { Rename, RevisionCapturedData } from '../events/event.js';
import { invalidOneLineText, oneLineProblem } from '../events/one-line.js';
import { rejection } from '../events/rejection.js';
import { isBlank } from '../projections/rules/rule-answer.js';
import { actorOf, type OperationContext } from './context.js';
import { boundCapture, boundText, INPUT_BOUNDS } from './input-bounds.js';

export type CaptureInput = Readonly<{
  runId: string;
  /** capture HEAD of this repository, or the bytes of this document (default: the run's subject) */
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
  /** name the input explicitly instead, with what changed since the last reviewed input */
  inputSha?: string;
  touched?: ReadonlyArray<string>;
  renames?: ReadonlyArray<Rename>;
  /**
   * review again the very input the last round reviewed, and why: a recorded choice, counted
   * against the policy's `sameInputRounds` (without it such a capture is refused, `unchanged-input`)
   */
  sameInput?: string;
}>;

export type CaptureResult = Readonly<{
  runId: string;
  seq: number | null;
  round: number;
  alreadyRecorded: boolean;
  capture: Omit<RevisionCapturedData, 'round'>;
}>;

/** The reason for a same-input round is someone's text: one line, said (`invalid-text`, `empty-field`). */
const sameInputReason = (reason: string): string => {
  const problem = isBlank(reason) ? 'is empty' : oneLineProblem(reason);
  if (problem === undefined) return reason;
  throw refusal(
    rejection(
      isBlank(reason) ? 'empty-field' : 'invalid-text',
      `the same-input reason ${problem === 'is empty' ? 'is empty: say why the same bytes are reviewed again' : invalidOneLineText(reason, problem)}`,
      ['sameInput', 'reason'],
    ),
  );
};

/** Record the input the run's next round reviews, and what changed since the last reviewed input. */
export const capture = async (ctx: OperationContext, input: CaptureInput): Promise<CaptureResult> => {
  const { runId } = input;
  boundCapture(input);
  boundText('sameInput', input.sameInput, INPUT_BOUNDS.reason);
  if (
    input.inputSha !== undefined &&
    (input.repo !== undefined || input.artifact !== undefined || input.allowDirty === true)
  )
    throw new ClearanceError('usage', 'give --input-sha or --repo/--artifact, not both');
  const sameInput =
    input.sameInput === undefined ? {} : { sameInput: { reason: sameInputReason(input.sameInput) } };
  const result =
    input.inputSha !== undefined
      ? await captureRound(
          ctx.store,
          runId,
          {
            inputSha: input.inputSha,
            touchedFiles: [...(input.touched ?? [])],
            renames: [...(input.renames ?? [])],
            ...sameInput,
          },
          actorOf(ctx),
        )
      : await captureWorkspace(
          ctx.store,
          runId,
          {
            ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
            ...(input.artifact === undefined ? {} : { artifact: path.resolve(input.artifact) }),
            ...(input.base === undefined ? {} : { base: input.base }),
            ...(input.allowDirty === undefined ? {} : { allowDirty: input.allowDirty }),
            ...sameInput,
          },
          actorOf(ctx),
        );
  const waiting = result.folded.state.capture;
  if (result.alreadyRecorded && waiting !== null) {
    const { round, ...capture } = waiting;
    return { runId, seq: null, round, alreadyRecorded: true, capture };
  }
  const event = result.appended[0];
  if (event?.type !== 'revision.captured')
    throw new ClearanceError('inconsistent-event', `the store appended no capture for ${runId}`);
  const { round, ...capture } = event.data;
  return { runId, seq: event.seq, round, alreadyRecorded: false, capture };
};
