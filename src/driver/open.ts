import { refusal } from '../errors.js';
import { capturePathsRejection } from '../events/capture-paths.js';
import type { RevisionCapturedData, RunOpenedData, StoredEvent } from '../events/event.js';
import { tokenCountRejection } from '../events/token-count.js';
import { captureRevision } from '../revision/capture.js';
import { type StoreRef, storeDirOf, storeOf } from '../store/store.js';
import { artifactNameOf } from './subject.js';

export type OpenReview = Readonly<{
  runId: string;
  policy: RunOpenedData['policy'];
  subject?: RunOpenedData['subject'];
  /** the commands the user agreed a review may run */
  commands?: ReadonlyArray<string>;
  /** round 1's input, captured in the same step */
  capture?: Omit<RevisionCapturedData, 'round'>;
}>;

/**
 * Open a review loop: its policy pinned, who consented to what, and optionally round 1's input,
 * whose names must be repository paths (`invalid-path`; `captureRound` says why it checks them).
 * A budget's `tokens` must be a whole number (`invalid-policy`), checked here for a library
 * caller's policy as `parsePolicy` checks a file's: a run opened before keeps the budget it pinned.
 */
export const openReview = (
  store: StoreRef,
  review: OpenReview,
  actor: string | Readonly<{ by: string; now?: () => Date }>,
): Promise<ReadonlyArray<StoredEvent>> => {
  const { by, now } = typeof actor === 'string' ? { by: actor, now: undefined } : actor;
  const refused =
    (review.capture === undefined ? undefined : capturePathsRejection(review.capture)) ??
    tokenCountRejection(review.policy.budget, 'policy', ['policy', 'budget'], 'invalid-policy');
  if (refused !== undefined) return Promise.reject(refusal(refused));
  return storeOf(store).openRun(
    {
      runId: review.runId,
      policy: review.policy,
      subject: review.subject ?? {},
      consent: { by, ...(review.commands === undefined ? {} : { commands: [...review.commands] }) },
    },
    {
      by,
      ...(now === undefined ? {} : { now }),
      ...(review.capture === undefined ? {} : { capture: { ...review.capture, round: 1 } }),
    },
  );
};

/**
 * Round 1's input, captured from the run's repository and artifact (see `captureWorkspace`). The
 * store the run will live in (a directory) is left out of the work tree when it lies inside it.
 */
export const captureFirstRound = async (
  store: StoreRef,
  subject: RunOpenedData['subject'],
  options: Readonly<{ base?: string; allowDirty?: boolean }> = {},
): Promise<Omit<RevisionCapturedData, 'round'>> => {
  const name = artifactNameOf(subject);
  const { round: _, ...capture } = await captureRevision({
    round: 1,
    store: storeDirOf(storeOf(store)),
    ...(subject.repo === undefined ? {} : { repo: subject.repo }),
    ...(subject.artifact === undefined ? {} : { artifact: subject.artifact }),
    ...(name === undefined ? {} : { artifactName: name }),
    ...(options.base === undefined ? {} : { base: options.base }),
    ...(options.allowDirty === undefined ? {} : { allowDirty: options.allowDirty }),
  });
  return capture;
};
