import path from 'node:path';
import { type NextStep, stepTo } from '@clearance/fold/internal/events/next-step.js';
import type { GateObservation } from '@clearance/fold/internal/projections/observation.js';
import {
  type ApprovedByPatch,
  type GateAnswer,
  gateOf,
} from '@clearance/fold/internal/projections/views/gate.js';
import { ClearanceError, type GateRefusal } from '../errors.js';
import { resolveBase } from '../revision/capture.js';
import { NOTES_REF, treesOf, writeNote } from '../revision/notes.js';
import { observeWorkspace } from '../revision/observe.js';
import { patchAgainst } from '../revision/patch-id.js';
import type { Signer } from '../signing/signer.js';
import { intact } from '../store/read.js';
import { storeDirOf } from '../store/store.js';
import { attest } from './attest.js';
import type { OperationContext } from './context.js';
import { boundText, INPUT_BOUNDS } from './input-bounds.js';
import type { GateOutput, ResultOf } from './schemas/results.js';

/**
 * What moves things on after each refusal: a review to record, the run's standing to read, the
 * CI checks, a capture the gate can compare, or (the approved bytes are not these) a new run for
 * the new commits, since a converged run takes no more rounds.
 */
const afterRefusal = (reason: GateRefusal, runId: string): NextStep => {
  switch (reason) {
    case 'no-review':
      return stepTo('record', runId);
    case 'not-converged':
      return stepTo('status', runId);
    case 'checks-not-passed':
      return stepTo('checks', runId);
    case 'unverifiable':
      return stepTo('capture', runId, { repo: true });
    case 'artifact-changed':
    case 'head-moved':
      return stepTo('open', runId, { newRun: true });
  }
};

export type GateInput = Readonly<{
  runId: string;
  repo?: string;
  artifact?: string;
  /**
   * the branch the change goes into (`origin/main`): when HEAD is not the reviewed commit, it is
   * approved if its patch against this is the one the reviewed commit made against it (git patch-id)
   */
  base?: string;
  /** on approval, sign an attestation and write it as a git note on the approved commit */
  attestWith?: Signer;
}>;

export type GateResult = ResultOf<typeof GateOutput>;

/**
 * The approved commit's note: the attestation, signed, on the commit the run reviewed, or on HEAD
 * when it was approved by patch (the predicate then names the reviewed commit and the patch).
 */
const attestOnCommit = async (
  ctx: OperationContext,
  input: GateInput,
  signer: Signer,
  byPatch: ApprovedByPatch | undefined,
): Promise<NonNullable<GateResult['attestation']>> => {
  const { state } = intact(await ctx.store.foldRun(input.runId));
  const reviewedCommit = state.reviewed?.commit;
  const commit = byPatch?.commit ?? reviewedCommit;
  const repo = input.repo === undefined ? state.run?.subject.repo : path.resolve(input.repo);
  if (commit === undefined || state.reviewed?.dirty === true || repo === undefined)
    throw new ClearanceError(
      'usage',
      `gate --attest writes the attestation as a git note on the approved commit: run ${input.runId} approved ${state.reviewed?.dirty === true ? 'a working tree' : 'no commit'}${repo === undefined ? ' in no repository' : ''} (use clearance attest for it)`,
    );
  const attested = await attest(ctx, {
    runId: input.runId,
    signer,
    ...(byPatch === undefined
      ? {}
      : { byPatch: { ...byPatch, tree: (await treesOf(repo, [byPatch.commit])).get(byPatch.commit) } }),
  });
  // the gate read the run once, the attestation again: if a round landed between, say so, never sign it
  if (
    attested.statement.predicate.verdict !== 'converged' ||
    attested.statement.predicate.reviewed?.commit !== (byPatch?.reviewed ?? commit)
  )
    throw new ClearanceError(
      'seq-mismatch',
      `run ${input.runId} moved while the gate was answering (it is ${attested.statement.predicate.verdict} now): gate it again`,
    );
  await writeNote(repo, commit, `${JSON.stringify(attested.envelope)}\n`);
  return { commit, ref: NOTES_REF, keyid: attested.keyid };
};

/**
 * The gate's answer: what is in front of it now (defaulting to the run's repository and artifact)
 * against what the last recorded round reviewed. Reads only; never writes.
 */
const askGate = async (ctx: OperationContext, input: GateInput): Promise<GateAnswer> => {
  boundText('repo', input.repo, INPUT_BOUNDS.path);
  boundText('artifact', input.artifact, INPUT_BOUNDS.path);
  boundText('base', input.base, INPUT_BOUNDS.revision);
  const { runId } = input;
  const { state } = intact(await ctx.store.foldRun(runId));
  const reviewed = state.reviewed;
  const subject = state.run?.subject ?? {};
  const repo = input.repo === undefined ? subject.repo : path.resolve(input.repo);
  const artifact = input.artifact === undefined ? subject.artifact : path.resolve(input.artifact);
  const converged = state.status === 'converged';
  if (reviewed?.commit !== undefined && converged && repo === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} reviewed commit ${reviewed.commit}: give --repo so the gate can compare HEAD`,
    );
  }
  if (reviewed?.artifactSha !== undefined && converged && artifact === undefined) {
    throw new ClearanceError(
      'usage',
      `run ${runId} reviewed an artifact: give --artifact so the gate can compare its bytes`,
    );
  }
  const now =
    reviewed === null || !converged
      ? {}
      : await observeWorkspace({
          ...(repo === undefined || reviewed.commit === undefined ? {} : { repo }),
          ...(artifact === undefined || reviewed.artifactSha === undefined ? {} : { artifact }),
          workingTree: reviewed.dirty === true,
          store: storeDirOf(ctx.store),
        });
  const patch =
    input.base === undefined ||
    repo === undefined ||
    reviewed?.commit === undefined ||
    reviewed.dirty === true ||
    now.commit === undefined ||
    now.commit === reviewed.commit
      ? undefined
      : await patchesAgainst(repo, input.base, reviewed.commit, now.commit);
  return gateOf(state, patch === undefined ? now : { ...now, patch });
};

/** The patches the reviewed commit and HEAD make, each against its merge base with `base`: reads only. */
const patchesAgainst = async (
  repo: string,
  base: string,
  reviewed: string,
  head: string,
): Promise<NonNullable<GateObservation['patch']>> => {
  const baseCommit = (await resolveBase(repo, base)) as string;
  const [reviewedPatch, headPatch] = await Promise.all([
    patchAgainst(repo, baseCommit, reviewed),
    patchAgainst(repo, baseCommit, head),
  ]);
  return { base: baseCommit, reviewed: reviewedPatch, head: headPatch };
};

/**
 * Approve only a converged run whose reviewed bytes are still the bytes in front of it. A refusal
 * is the error named by its reason (`not-converged`, `head-moved`, …: exit 1), with the reason,
 * the run's status and the message in its details; there is no `approved: false` and no bypass.
 */
export const gate = async (ctx: OperationContext, input: GateInput): Promise<GateResult> => {
  const answer = await askGate(ctx, input);
  if (!answer.approved) {
    throw new ClearanceError(
      answer.reason,
      `gate refused: ${answer.message}`,
      { reason: answer.reason, status: answer.status, runId: input.runId },
      afterRefusal(answer.reason, input.runId),
    );
  }
  return {
    runId: input.runId,
    approved: true,
    inputSha: answer.inputSha,
    boundBy: answer.boundBy,
    ...(answer.byPatch === undefined ? {} : { byPatch: answer.byPatch }),
    message: answer.message,
    ...(input.attestWith === undefined
      ? {}
      : { attestation: await attestOnCommit(ctx, input, input.attestWith, answer.byPatch) }),
  };
};
