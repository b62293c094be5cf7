import type { DisputeRuling, Refuted } from '../projections/state.js';

/**
 * Disputes and candidates refuted before, in clearance's words, for every sink that shows them
 * (`explain`, `feedback`, `replay`, the HTML page). Only the numbers and the enums are put in words
 * here; each sink encodes the reviewer's and the author's text (reasons, evidence) itself.
 */

/** What a ruling did to a dispute: `open` upholds the finding, `withdrawn` accepts the dispute. */
export const rulingWord = (ruling: Pick<DisputeRuling, 'status'>): string => {
  switch (ruling.status) {
    case 'open':
      return 'upheld';
    case 'withdrawn':
      return 'accepted (withdrawn)';
    case 'fixed':
      return 'moot (fixed)';
  }
};

/**
 * "upheld in round 3" or "accepted (withdrawn) by Ada after round 4": who ruled, and when. A
 * person's name is theirs: it goes through the sink's encoder (`value`).
 */
export const rulingPhrase = (ruling: DisputeRuling, value: (s: string) => string = (s) => s): string =>
  ruling.by === undefined
    ? `${rulingWord(ruling)} in round ${ruling.round}`
    : `${rulingWord(ruling)} by ${value(ruling.by)} after round ${ruling.round}`;

/** "refuted in round 1" or "withdrawn in round 2": the earlier refutation a candidate repeated. */
export const refutedBeforePhrase = (r: Refuted): string | null =>
  r.before === undefined ? null : `${r.before.how} in round ${r.before.round}`;
