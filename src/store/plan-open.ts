import type { RevisionCapturedData, RunOpenedData } from '@clearance/fold/internal/events/event.js';
import { ZERO_HASH } from '@clearance/fold/internal/events/sha256.js';
import { buildEvents } from '@clearance/fold/internal/projections/decider.js';
import { reduce } from '@clearance/fold/internal/projections/fold.js';
import { initialState, type RunState } from '@clearance/fold/internal/projections/state.js';
import * as E from 'fp-ts/lib/Either.js';
import { refusal } from '../errors.js';
import { type Encoded, encodeEvents } from './log-format.js';
import { nodeDecider } from './node-decider.js';

/** What a new run's log starts with: its first lines, and the state they fold to. */
export type OpenPlan = Readonly<{ encoded: Encoded; state: RunState }>;

/**
 * What every store does before it creates a run, as `planAppend` is before it appends: decide the
 * run's first events (`run.opened`, and round 1's capture when given), check them with `evolve`
 * from the initial state, and encode them as the log's first lines. Throws the refusal with
 * nothing written.
 */
export const planOpen = (
  opened: RunOpenedData,
  options: Readonly<{ by: string; capture?: RevisionCapturedData; now?: () => Date }>,
): OpenPlan => {
  const built = buildEvents(
    { kind: 'open', opened, ...(options.capture === undefined ? {} : { capture: options.capture }) },
    initialState,
  );
  if (E.isLeft(built)) throw refusal(built.left);
  const checked = reduce(nodeDecider.evolve, initialState, built.right, 'stop');
  if (checked.rejection !== null) throw refusal(checked.rejection);
  const at = (options.now?.() ?? new Date()).toISOString();
  const encoded = encodeEvents(built.right, { seq: 0, hash: ZERO_HASH }, { at, by: options.by });
  return { encoded, state: checked.state };
};
