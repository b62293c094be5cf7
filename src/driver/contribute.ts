import * as E from 'fp-ts/lib/Either.js';
import { type Decided, decideContribution, decideMerge, type Missing } from '../projections/decide.js';
import { type AppendResult, append } from '../store/append.js';
import type { ActorOptions } from './capture.js';

/**
 * Append one reviewer's report for the round in progress (`contribution.recorded`), decided under
 * the lock like a round report: a refusal throws with the rejection and writes nothing.
 */
export const contribute = (
  dir: string,
  runId: string,
  report: unknown,
  expert: string | undefined,
  options: ActorOptions,
): Promise<AppendResult> =>
  append(
    dir,
    runId,
    (state) => E.map((d: Decided) => d.events)(decideContribution(state, report, expert)),
    options,
  );

/**
 * Close the round in progress from its contributions: reviewers named in `missing`, and every
 * expert the policy expects who handed in nothing, are recorded absent; then the merged round.
 */
export const recordMerged = (
  dir: string,
  runId: string,
  options: ActorOptions & Readonly<{ missing?: ReadonlyArray<Missing> }>,
): Promise<AppendResult> => {
  const { missing = [], ...actor } = options;
  return append(dir, runId, (state) => E.map((d: Decided) => d.events)(decideMerge(state, missing)), actor);
};
