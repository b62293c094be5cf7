import { GATE_REFUSALS, type GateRefusal } from '../../events/gate-refusals.js';
import type { GateObservation, PatchSide } from '../observation.js';
import {
  checksOn,
  describeRequiredFailure,
  missingRequired,
  requiredChecksOf,
  requiredFailures,
} from '../rules/checks.js';
import type { RunState, RunStatus } from '../state.js';
import { blockedReasonOf, describeStall } from './stall.js';

export type { GateObservation };

export { GATE_REFUSALS, type GateRefusal };

/** An approval of another commit than the one reviewed, because it makes the same patch. */
export type ApprovedByPatch = Readonly<{
  /** the commit approved: HEAD */
  commit: string;
  /** the commit the run reviewed */
  reviewed: string;
  /** the commit the base named, and the patch id both sides share */
  base: string;
  patchId: string;
}>;

/** The gate's answer: approved, bound to what it compared, or refused with the reason. */
export type GateAnswer =
  | Readonly<{
      approved: true;
      message: string;
      inputSha: string;
      boundBy: 'commit' | 'tree' | 'working-tree' | 'artifact' | 'patch';
      /** with `boundBy: 'patch'`: which commit was reviewed, and the patch it shares with HEAD */
      byPatch?: ApprovedByPatch;
    }>
  | Readonly<{ approved: false; reason: GateRefusal; message: string; status: RunStatus }>;

const short = (sha: string | undefined) => (sha === undefined ? 'nothing' : sha.slice(0, 12));

/**
 * Under a policy with required checks, what keeps them from having passed on the reviewed input,
 * or null when every one passed (or was skipped, and may be). The fold already refuses a report
 * before its checks and ends a round whose required check failed; the gate asks again of the
 * state it approves, so no approval ever rests on that alone.
 */
const checksNotPassed = (state: RunState): string | null => {
  const { run, reviewed } = state;
  if (run === null || reviewed === null) return null;
  const required = requiredChecksOf(run.policy);
  if (required.length === 0) return null;
  const checks = checksOn(state, reviewed.round, reviewed.inputSha);
  if (checks === null)
    return `no CI checks were recorded for round ${reviewed.round}'s input ${reviewed.inputSha}: the policy requires ${required.join(', ')} to pass on the input it approves`;
  const problems = [
    ...requiredFailures(run.policy, checks.checks).map(describeRequiredFailure),
    ...missingRequired(run.policy, checks.checks).map((name) => `required check ${name} was not recorded`),
  ];
  return problems.length === 0
    ? null
    : `the required checks did not all pass on round ${reviewed.round}'s input ${reviewed.inputSha}: ${problems.join('; ')}`;
};

/** Two sides make the same patch: both have one, and its id is the same. */
const samePatch = (reviewed: PatchSide, head: PatchSide): head is Extract<PatchSide, { id: string }> =>
  reviewed.id !== null && reviewed.id === head.id;

/** Why a patch does not carry the approval over: one side has none, or they differ. */
const patchDiffers = (patch: NonNullable<GateObservation['patch']>): string => {
  const { reviewed, head, base } = patch;
  if (reviewed.id === null)
    return `the reviewed commit's patch against ${short(base)} cannot be compared: ${reviewed.why}`;
  if (head.id === null) return `HEAD's patch against ${short(base)} cannot be compared: ${head.why}`;
  return `against ${short(base)} its patch (patch-id ${short(head.id)}) is not the one reviewed (${short(reviewed.id)}): the change itself differs, as after a rebase that resolved a conflict`;
};

/**
 * The approval gate: approved only when the run converged and the bytes in front of it are the
 * bytes the last recorded round reviewed. Content addressing, as git does it: same bytes, same
 * hash, the approval stands; different bytes, it is void. There is no way to skip a check. One
 * exception, asked for by name (`gate --base`): a commit that makes, against its merge base with
 * the base, exactly the patch the reviewed commit made against its own (a rebase that changed
 * nothing of the change, git patch-id) is approved by patch, saying which commit was reviewed.
 */
export const gateOf = (state: RunState, now: GateObservation): GateAnswer => {
  const { status } = state;
  const runId = state.run?.runId ?? '?';
  const refuse = (reason: GateRefusal, message: string): GateAnswer => ({
    approved: false,
    reason,
    message,
    status,
  });
  const reviewed = state.reviewed;
  if (state.run === null || reviewed === null)
    return refuse('no-review', `run ${runId} has no recorded round: nothing was reviewed`);
  if (status !== 'converged') {
    const stalled =
      status === 'blocked' && state.stall !== null
        ? ` (${blockedReasonOf(state)}: ${describeStall(state, state.stall)})`
        : '';
    return refuse(
      'not-converged',
      `run ${runId} is ${status}${stalled} after round ${state.round}, not converged: only a converged review approves`,
    );
  }
  const checks = checksNotPassed(state);
  if (checks !== null) return refuse('checks-not-passed', checks);
  if (reviewed.commit === undefined && reviewed.artifactSha === undefined) {
    return refuse(
      'unverifiable',
      `round ${state.round} reviewed input ${reviewed.inputSha}, which names no commit and no artifact the gate can compare: capture the input from its repository or its artifact`,
    );
  }
  if (reviewed.artifactSha !== undefined && now.artifactSha !== reviewed.artifactSha) {
    return refuse(
      'artifact-changed',
      `the artifact's bytes hash to ${short(now.artifactSha)}, but round ${state.round} reviewed ${short(reviewed.artifactSha)}: the approval does not cover these bytes`,
    );
  }
  if (reviewed.commit !== undefined) {
    if (reviewed.dirty === true) {
      if (now.workingTree !== reviewed.tree) {
        return refuse(
          'head-moved',
          `the working files are tree ${short(now.workingTree)}, but round ${state.round} reviewed the working tree ${short(reviewed.tree)}`,
        );
      }
      return {
        approved: true,
        inputSha: reviewed.inputSha,
        boundBy: 'working-tree',
        message: `approved: the working files are the tree round ${state.round} reviewed`,
      };
    }
    if (now.commit !== reviewed.commit) {
      const byTree = state.run.policy.bind === 'tree';
      if (byTree && now.tree !== undefined && now.tree === reviewed.tree) {
        return {
          approved: true,
          inputSha: reviewed.inputSha,
          boundBy: 'tree',
          message: `approved by tree: HEAD ${short(now.commit)} is not the reviewed commit ${short(reviewed.commit)}, but its tree ${short(now.tree)} is identical (policy bind: tree)`,
        };
      }
      const patch = now.patch;
      if (patch !== undefined && now.commit !== undefined && samePatch(patch.reviewed, patch.head)) {
        return {
          approved: true,
          inputSha: reviewed.inputSha,
          boundBy: 'patch',
          byPatch: {
            commit: now.commit,
            reviewed: reviewed.commit,
            base: patch.base,
            patchId: patch.head.id,
          },
          message: `approved by patch: HEAD ${short(now.commit)} is not the commit round ${state.round} reviewed, ${short(reviewed.commit)}, but against ${short(patch.base)} its patch is the same (patch-id ${short(patch.head.id)})`,
        };
      }
      const treeNote = byTree
        ? `; bind: tree does not apply, the trees differ (${short(now.tree)} vs reviewed ${short(reviewed.tree)})`
        : '';
      const patchNote = patch === undefined ? '' : `; ${patchDiffers(patch)}`;
      return refuse(
        'head-moved',
        `HEAD is ${short(now.commit)}, but round ${state.round} reviewed ${short(reviewed.commit)}${treeNote}${patchNote}`,
      );
    }
  }
  return {
    approved: true,
    inputSha: reviewed.inputSha,
    boundBy: reviewed.commit !== undefined ? 'commit' : 'artifact',
    message: `approved: ${reviewed.commit !== undefined ? `HEAD is ${short(reviewed.commit)}` : ''}${reviewed.commit !== undefined && reviewed.artifactSha !== undefined ? ' and ' : ''}${reviewed.artifactSha !== undefined ? `the artifact hashes to ${short(reviewed.artifactSha)}` : ''}, as round ${state.round} reviewed`,
  };
};
