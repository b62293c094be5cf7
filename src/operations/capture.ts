import path from 'node:path';
import { capturePathsRejection } from '@clearance/fold/internal/events/capture-paths.js';
import type { RevisionCapturedData } from '@clearance/fold/internal/events/event.js';
import { invalidOneLineText, oneLineProblem } from '@clearance/fold/internal/events/one-line.js';
import { rejection } from '@clearance/fold/internal/events/rejection.js';
import { isBlank } from '@clearance/fold/internal/projections/rules/rule-answer.js';
import { openFindings } from '@clearance/fold/internal/projections/views/findings.js';
import { ClearanceError, refusal } from '../errors.js';
import { captureRevision } from '../revision/capture.js';
import type { AppendOptions, AppendResult } from '../store/append.js';
import { intact } from '../store/read.js';
import { storeDirOf } from '../store/store.js';
import { appendCommand } from './command.js';
import { actorOf, type OperationContext } from './context.js';
import { boundCapture, boundText, INPUT_BOUNDS } from './input-bounds.js';
import { type NamedInput, namedCapture } from './open.js';
import type { CaptureOutput, ResultOf } from './schemas/results.js';
import { artifactNameOf } from './subject.js';

/** The input captured from git and files, or named explicitly instead with what changed since the last reviewed input. */
export type CaptureInput = Partial<NamedInput> &
  Readonly<{
    runId: string;
    /** capture HEAD of this repository, or the bytes of this document (default: the run's subject) */
    repo?: string;
    artifact?: string;
    base?: string;
    allowDirty?: boolean;
    /**
     * review again the very input the last round reviewed, and why: a recorded choice, counted
     * against the policy's `sameInputRounds` (without it such a capture is refused, `unchanged-input`)
     */
    sameInput?: string;
  }>;

export type CaptureResult = ResultOf<typeof CaptureOutput>;

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

/**
 * The input named explicitly (a flag, an MCP argument, a library caller): each name must be a
 * repository path (`invalid-path`), checked here, the door every explicit capture passes. The
 * round number is the run's, read under the lock.
 */
const captureNamed = (
  ctx: OperationContext,
  runId: string,
  capture: Omit<RevisionCapturedData, 'round'>,
  actor: AppendOptions,
): Promise<AppendResult> => {
  const refused = capturePathsRejection(capture);
  if (refused !== undefined) return Promise.reject(refusal(refused));
  return appendCommand(ctx.store, runId, { kind: 'capture', capture }, actor);
};

/**
 * The input captured from git and files: the commit (or the working tree), the artifact's hash,
 * and what changed since the last *reviewed* input. Defaults to the repository and artifact the
 * run was opened with; the store, when it lies inside the work tree, is no part of it. Appended
 * only if nothing was appended meanwhile.
 */
const captureWorkspace = async (
  ctx: OperationContext,
  runId: string,
  source: Readonly<{ repo?: string; artifact?: string; base?: string; allowDirty?: boolean }>,
  sameInput: Readonly<{ sameInput?: { reason: string } }>,
  actor: AppendOptions,
): Promise<AppendResult> => {
  const read = intact(await ctx.store.foldRun(runId));
  const subject = read.state.run?.subject ?? {};
  const repo = source.repo ?? subject.repo;
  const artifact = source.artifact ?? subject.artifact;
  if (repo === undefined && artifact === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} was opened without --repo or --artifact: give one, or --input-sha`,
    );
  }
  const capture = await captureRevision({
    runId,
    round: read.state.round + 1,
    store: storeDirOf(ctx.store),
    repo,
    artifact,
    artifactName: artifactNameOf({ ...subject, ...(artifact === undefined ? {} : { artifact }) }),
    base: source.base,
    allowDirty: source.allowDirty,
    // the diff is taken against what the run had reviewed when we read it: refused if that moved
    lastReviewed: read.state.reviewed ?? undefined,
    findings: openFindings(read.state).flatMap((f) =>
      f.line === null ? [] : [{ id: f.id, file: f.file, line: f.line }],
    ),
  });
  // the round it was taken for is the one decided under the lock, as the expected seq holds it still
  return appendCommand(
    ctx.store,
    runId,
    { kind: 'capture', capture: { ...capture, ...sameInput } },
    { ...actor, expectedSeq: read.lastSeq },
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
      ? await captureNamed(
          ctx,
          runId,
          { ...namedCapture({ ...input, inputSha: input.inputSha }), ...sameInput },
          actorOf(ctx),
        )
      : await captureWorkspace(
          ctx,
          runId,
          {
            ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
            ...(input.artifact === undefined ? {} : { artifact: path.resolve(input.artifact) }),
            base: input.base,
            allowDirty: input.allowDirty,
          },
          sameInput,
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
