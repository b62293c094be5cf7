import { disputeBlockAfter } from '../../events/policy.js';
import type { RunState, Stall, StallWhy } from '../state.js';

/**
 * Why a blocked run is blocked: its round cap, a stall before it, or a blocking finding upheld
 * after the policy's count of disputes (null while not blocked). A dispute names a disagreement
 * only a person can settle, so it is the reason whenever one is among the stall's findings.
 */
export type BlockedReason = 'cap' | 'stalled' | 'disputed';

export const blockedReasonOf = (state: RunState): BlockedReason | null => {
  if (state.status !== 'blocked') return null;
  if (state.stall === null) return 'cap';
  return state.stall.findings.some((f) => f.why === 'disputed') ? 'disputed' : 'stalled';
};

const whyText = (why: StallWhy, rounds: number, disputes: number): string => {
  switch (why) {
    case 'kept-open':
      return `decided open in ${rounds} consecutive rounds`;
    case 'reopened-twice':
      return 'reopened a second time (the fix is not holding)';
    case 'disputed':
      return `upheld after ${disputes} dispute${disputes === 1 ? '' : 's'} by the author`;
  }
};

/** "finding 3f2a1b2c3d4e decided open in 2 consecutive rounds; …": the findings a stall names. */
export const describeStall = (state: RunState, stall: Stall): string => {
  const policy = state.run?.policy;
  const rounds = policy?.stallRounds ?? 0;
  const disputes = policy === undefined ? 0 : disputeBlockAfter(policy);
  return stall.findings
    .map((f) => `finding ${f.id.slice(0, 12)} ${whyText(f.why, rounds, disputes)}`)
    .join('; ');
};
