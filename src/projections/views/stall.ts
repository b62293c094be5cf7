import type { RunState, Stall, StallWhy } from '../state.js';

/** Why a blocked run is blocked: its round cap, or a stall before it (null while not blocked). */
export type BlockedReason = 'cap' | 'stalled';

export const blockedReasonOf = (state: RunState): BlockedReason | null =>
  state.status !== 'blocked' ? null : state.stall === null ? 'cap' : 'stalled';

const whyText = (why: StallWhy, rounds: number): string =>
  why === 'kept-open'
    ? `decided open in ${rounds} consecutive rounds`
    : 'reopened a second time (the fix is not holding)';

/** "finding 3f2a1b2c3d4e decided open in 2 consecutive rounds; …": the findings a stall names. */
export const describeStall = (state: RunState, stall: Stall): string => {
  const rounds = state.run?.policy.stallRounds ?? 0;
  return stall.findings.map((f) => `finding ${f.id.slice(0, 12)} ${whyText(f.why, rounds)}`).join('; ');
};
