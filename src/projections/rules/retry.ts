import { canonicalJson } from '../../events/canonical-json.js';
import type { DomainEvent } from '../../events/event.js';
import { lookUp } from '../finding-index.js';
import type { RunState } from '../state.js';
import { at } from '../vec.js';
import { pendingDispute } from './disputes.js';
import { rerunsOn } from './reproductions.js';

/**
 * Whether an offered event is one already on the record: a driver that crashed after its append
 * landed cannot tell, and offers it again. Such a retry appends nothing and is answered "already
 * recorded" instead of being refused as a round that is not next. Keyed by content:
 *
 * - a round report: the round ended with a report of this very `reportSha` (same run, round,
 *   input, findings and decisions); the same round with another report is still refused;
 * - a reviewer's contribution: the same reviewer already handed in this very report this round;
 * - a reproduction's outcome: this finding's reproduction already has this very outcome on the
 *   record for this round and input (a re-run after a crash may print other bytes: the first
 *   output stays the evidence); the other outcome for it is still refused;
 * - a capture: it is exactly the capture already waiting for the next round (capturing it again
 *   would restart that round's stages for nothing);
 * - CI checks: they are exactly the checks last recorded, for the same round and input (the retry
 *   of a record whose required failure ended the round included);
 * - a dispute: the finding's dispute still waiting for its ruling is this very one (round and
 *   reason); another reason for it is still refused.
 *
 * A stage started again after a failure is a new attempt, never a retry, so stage events are not.
 */
export const alreadyRecorded = (state: RunState, event: DomainEvent): boolean => {
  switch (event.type) {
    case 'round.recorded': {
      // rounds end once each, in order: round r's outcome is the r-th
      const outcome = at(state.outcomes, event.data.round - 1);
      return outcome?.round === event.data.round && outcome.reportSha === event.data.reportSha;
    }
    case 'contribution.recorded':
      return state.contributions.some(
        (c) =>
          c.round === event.data.round &&
          c.reportSha === event.data.reportSha &&
          c.expert === (event.data.expert ?? null),
      );
    case 'reproduction.recorded': {
      const { round, inputSha, findingId, outcome } = event.data;
      return rerunsOn(state, round, inputSha).some((r) => r.findingId === findingId && r.outcome === outcome);
    }
    case 'revision.captured':
      return state.capture !== null && canonicalJson(state.capture) === canonicalJson(event.data);
    case 'checks.recorded':
      return state.checks !== null && canonicalJson(state.checks) === canonicalJson(event.data);
    case 'finding.disputed': {
      const finding = lookUp(state.findings, event.data.findingId);
      const pending = finding === undefined ? undefined : pendingDispute(finding);
      return pending?.round === event.data.round && pending.reason === event.data.reason;
    }
    default:
      return false;
  }
};
