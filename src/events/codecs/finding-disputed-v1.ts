import * as t from 'io-ts';

/**
 * The author answered a finding between rounds: it is wrong, and nothing was changed for it, with
 * one line of reasoning. `round` is the round in progress when it was said: that round (or, if it
 * ends without a report, the next one that is recorded) must rule on it, `open` upholding the
 * finding, `withdrawn` accepting the dispute.
 */
export const FindingDisputedV1 = t.type({
  findingId: t.string,
  round: t.number,
  reason: t.string,
});
