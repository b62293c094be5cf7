import type { RunState } from '../state.js';
import type { Check } from './rule-answer.js';
import { fail, ok } from './rule-answer.js';

/** The round every new event is for: the one after the last the run closed (recorded or ended). */
export const nextRoundOf = (state: Pick<RunState, 'round'>): number => state.round + 1;

/**
 * The one "next round" guard: an event that names a round (a capture, a report, a stage, a round's
 * end) is for the run's next round, else `wrong-round`, its message the event's own (`said`, given
 * the round it offered and the next round).
 */
export const forNextRound = (
  state: Pick<RunState, 'round'>,
  round: number,
  said: (next: number) => string,
): Check => {
  const next = nextRoundOf(state);
  return round === next ? ok : fail('wrong-round', said(next), ['round']);
};
