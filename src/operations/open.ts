import path from 'node:path';
import { captureFirstRound, openReview } from '../driver/open.js';
import { ClearanceError } from '../errors.js';
import type { Rename, RevisionCapturedData } from '../events/event.js';
import { isPresetName, type Policy, PRESET_NAMES, PRESETS } from '../events/policy.js';
import { actorOf, type OperationContext } from './context.js';
import { boundCapture, boundList, INPUT_BOUNDS } from './input-bounds.js';

/** Round 1's input named explicitly, or taken from the repository and artifact the run is opened on. */
export type OpenInput = Readonly<{
  runId: string;
  /** a preset's name (default `default`), or a policy already parsed (`parsePolicy`) */
  policy?: string | Policy;
  repo?: string;
  artifact?: string;
  base?: string;
  allowDirty?: boolean;
  inputSha?: string;
  touched?: ReadonlyArray<string>;
  renames?: ReadonlyArray<Rename>;
  /** the commands the user agrees the review may run */
  consent?: ReadonlyArray<string>;
}>;

export type OpenResult = Readonly<{
  runId: string;
  policy: string;
  maxRounds: number;
  seq: number;
  subject: Readonly<{ repo?: string; artifact?: string }>;
  capture: Omit<RevisionCapturedData, 'round'> | null;
  store: string;
}>;

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

/** Open a review loop: its policy pinned, who consented to what, and optionally round 1's input. */
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
  const capture = fromWorkspace
    ? await captureFirstRound(ctx.store, subject, {
        ...(input.base === undefined ? {} : { base: input.base }),
        ...(input.allowDirty === undefined ? {} : { allowDirty: input.allowDirty }),
      })
    : input.inputSha === undefined
      ? undefined
      : {
          inputSha: input.inputSha,
          touchedFiles: [...(input.touched ?? [])],
          renames: [...(input.renames ?? [])],
        };
  const events = await openReview(
    ctx.store,
    {
      runId: input.runId,
      policy,
      subject,
      ...(capture === undefined ? {} : { capture }),
      ...(input.consent === undefined ? {} : { commands: input.consent }),
    },
    actorOf(ctx),
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
