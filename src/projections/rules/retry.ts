import { canonicalJson } from '../../events/canonical-json.js';
import type { DomainEvent } from '../../events/event.js';
import type { RunState } from '../state.js';
import { toArray } from '../vec.js';

/**
 * Whether an offered event is one already on the record: a driver that crashed after its append
 * landed cannot tell, and offers it again. Such a retry appends nothing and is answered "already
 * recorded" instead of being refused as a round that is not next. Keyed by content:
 *
 * - a round report: the round ended with a report of this very `reportSha` (same run, round,
 *   input, findings and decisions); the same round with another report is still refused;
 * - a reviewer's contribution: the same reviewer already handed in this very report this round;
 * - a capture: it is exactly the capture already waiting for the next round (capturing it again
 *   would restart that round's stages for nothing).
 *
 * A stage started again after a failure is a new attempt, never a retry, so stage events are not.
 */
export const alreadyRecorded = (state: RunState, event: DomainEvent): boolean => {
  switch (event.type) {
    case 'round.recorded':
      return toArray(state.outcomes).some(
        (o) => o.round === event.data.round && o.reportSha === event.data.reportSha,
      );
    case 'contribution.recorded':
      return state.contributions.some(
        (c) =>
          c.round === event.data.round &&
          c.reportSha === event.data.reportSha &&
          c.expert === (event.data.expert ?? null),
      );
    case 'revision.captured':
      return state.capture !== null && canonicalJson(state.capture) === canonicalJson(event.data);
    default:
      return false;
  }
};
