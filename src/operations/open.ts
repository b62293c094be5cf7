import path from 'node:path';
import { capturePathsRejection } from '@clearance/fold/internal/events/capture-paths.js';
import type { Rename, RevisionCapturedData } from '@clearance/fold/internal/events/event.js';
import { isPresetName, type Policy, PRESET_NAMES, PRESETS } from '@clearance/fold/internal/events/policy.js';
import { tokenCountRejection } from '@clearance/fold/internal/events/token-count.js';
import { ClearanceError, refusal } from '../errors.js';
import { captureRevision } from '../revision/capture.js';
import { openRun } from '../store/open-run.js';
import { storeDirOf } from '../store/store.js';
import { actorOf, type OperationContext } from './context.js';
import { boundCapture, boundList, INPUT_BOUNDS } from './input-bounds.js';
import type { OpenOutput, ResultOf } from './schemas/results.js';
import { artifactNameOf } from './subject.js';

/** An explicitly named input's revision: its commit, tree, artifact hash, as a capture records them. */
export type NamedRevision = Readonly<
  Pick<RevisionCapturedData, 'commit' | 'tree' | 'dirty' | 'artifactSha' | 'base'>
>;

/** An input named explicitly (`--input-sha`, `--touched`, `--rename`), instead of captured from git. */
export type NamedInput = Readonly<{
  inputSha: string;
  touched?: ReadonlyArray<string>;
  renames?: ReadonlyArray<Rename>;
  /** what the input binds to, for a library caller that read git itself */
  revision?: NamedRevision;
}>;

/** A named input as a capture holds it, its keys in the order every such capture line has them. */
export const namedCapture = (input: NamedInput): Omit<RevisionCapturedData, 'round'> => ({
  inputSha: input.inputSha,
  touchedFiles: [...(input.touched ?? [])],
  renames: [...(input.renames ?? [])],
  ...input.revision,
});

/** Round 1's input named explicitly, or taken from the repository and artifact the run is opened on. */
export type OpenInput = Partial<NamedInput> &
  Readonly<{
    runId: string;
    /** a preset's name (default `default`), or a policy already parsed (`parsePolicy`) */
    policy?: string | Policy;
    repo?: string;
    artifact?: string;
    base?: string;
    allowDirty?: boolean;
    /** the commands the user agrees the review may run */
    consent?: ReadonlyArray<string>;
  }>;

export type OpenResult = ResultOf<typeof OpenOutput>;

const policyOf = (policy: OpenInput['policy']): Policy => {
  if (typeof policy === 'object') return policy;
  const name = policy ?? 'default';
  if (!isPresetName(name))
    throw new ClearanceError(
      'usage',
      `unknown policy ${JSON.stringify(name)}: use one of ${PRESET_NAMES.join(', ')}, or a policy file`,
      { policy: name, choices: PRESET_NAMES },
    );
  return PRESETS[name];
};

const withoutRound = ({ round: _, ...capture }: RevisionCapturedData): Omit<RevisionCapturedData, 'round'> =>
  capture;

/**
 * Open a review loop: its policy pinned, who consented to what, and optionally round 1's input,
 * whose names must be repository paths (`invalid-path`; `capture` says why it checks them). A
 * budget's `tokens` must be a whole number (`invalid-policy`), checked here for a library caller's
 * policy as `parsePolicy` checks a file's: a run opened before keeps the budget it pinned.
 */
export const open = async (ctx: OperationContext, input: OpenInput): Promise<OpenResult> => {
  boundCapture(input);
  boundList('consent', input.consent, INPUT_BOUNDS.commands, INPUT_BOUNDS.command);
  const policy = policyOf(input.policy);
  const fromWorkspace = input.repo !== undefined || input.artifact !== undefined;
  if (fromWorkspace && input.inputSha !== undefined)
    throw new ClearanceError(
      'usage',
      'give a repository or artifact (--repo/--artifact) or --input-sha, not both',
    );
  const subject = {
    ...(input.repo === undefined ? {} : { repo: path.resolve(input.repo) }),
    ...(input.artifact === undefined ? {} : { artifact: path.resolve(input.artifact) }),
  };
  const capture: Omit<RevisionCapturedData, 'round'> | undefined = fromWorkspace
    ? withoutRound(
        await captureRevision({
          round: 1,
          ...subject,
          artifactName: artifactNameOf(subject),
          base: input.base,
          allowDirty: input.allowDirty,
          store: storeDirOf(ctx.store),
        }),
      )
    : input.inputSha === undefined
      ? undefined
      : namedCapture({ ...input, inputSha: input.inputSha });
  const { by, now } = actorOf(ctx);
  const refused =
    (capture === undefined ? undefined : capturePathsRejection(capture)) ??
    tokenCountRejection(policy.budget, 'policy', ['policy', 'budget'], 'invalid-policy');
  if (refused !== undefined) throw refusal(refused);
  const events = await openRun(
    ctx.store,
    {
      runId: input.runId,
      policy,
      subject,
      consent: { by, ...(input.consent === undefined ? {} : { commands: [...input.consent] }) },
    },
    {
      by,
      ...(now === undefined ? {} : { now }),
      // round last, as every opened run's capture line has it
      ...(capture === undefined ? {} : { capture: { ...capture, round: 1 } }),
    },
  );
  return {
    runId: input.runId,
    policy: policy.name,
    maxRounds: policy.maxRounds,
    seq: events.length,
    subject,
    capture: capture ?? null,
    store: ctx.store.where,
  };
};
