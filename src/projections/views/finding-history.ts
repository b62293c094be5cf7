import type { Finding, FindingStatus, FindingStep, RunState } from '../state.js';
import { last, toArray } from '../vec.js';

/**
 * A finding's full history, one step per round since it opened, as the log tells it: its stored
 * steps (opened, decided, ruled), and a `carried` step for every round that ended while it was
 * open and undecided. Rounds are numbered 1, 2, … and each ends exactly once (recorded, or ended
 * without a report), so the rounds that ended are 1..state.round. Carrying is derived here so
 * that a round touches only the findings it decides. A ruling at round r is made after round r
 * ended, so it follows that round's step.
 */
export const historyOf = (state: RunState, finding: Finding): ReadonlyArray<FindingStep> => {
  const stored = toArray(finding.steps);
  const out: FindingStep[] = [];
  let next = 0;
  let status: FindingStatus = 'open';
  const flushBefore = (round: number) => {
    for (; next < stored.length && (stored[next] as FindingStep).round < round; next++) {
      const step = stored[next] as FindingStep;
      out.push(step);
      status = step.status;
    }
  };
  for (let round = finding.openedRound + 1; round <= state.round; round++) {
    flushBefore(round);
    const here = stored[next];
    const decidedHere =
      here !== undefined && here.round === round && (here.how === 'decided' || here.how === 'reopened');
    if (!decidedHere && status === 'open') out.push({ round, how: 'carried', status: 'open' });
  }
  flushBefore(Number.POSITIVE_INFINITY);
  return out;
};

/** How many times a fixed finding was reopened (steps `reopened`). */
export const reopeningsOf = (finding: Finding): number =>
  toArray(finding.steps).filter((s) => s.how === 'reopened').length;

/**
 * Rounds it has been open, counting the round it opened in: the open steps of `historyOf`,
 * counted without building them while the finding never reopened (a decision closes it in its
 * round, a ruling after its round); the rounds a reopened finding spent fixed do not count.
 */
export const roundsOpenOf = (state: RunState, finding: Finding): number => {
  if (reopeningsOf(finding) > 0)
    return historyOf(state, finding).filter((s) => s.status === 'open' && s.how !== 'ruled').length;
  if (finding.status === 'open') return state.round - finding.openedRound + 1;
  const closing = last(finding.steps);
  if (closing === undefined) return 0;
  return closing.round - finding.openedRound + (closing.how === 'ruled' ? 1 : 0);
};
