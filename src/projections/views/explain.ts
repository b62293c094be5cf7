import type { Finding, FindingStep, RunState, RunStatus } from '../state.js';
import { citationOf, openBlockingFindings, openFindings } from './findings.js';

export type BlockingReason = Readonly<{
  id: string;
  file: string;
  line: number | null;
  citation: string;
  severity: string;
  summary: string;
  openedRound: number;
  /** every round that kept it open, and how: decided open, or carried forward untouched */
  keptOpen: ReadonlyArray<FindingStep>;
}>;

export type Explanation = Readonly<{
  status: RunStatus;
  headline: string;
  blocking: ReadonlyArray<BlockingReason>;
  advisoryOpen: number;
}>;

const blockingReason = (f: Finding): BlockingReason => ({
  id: f.id,
  file: f.file,
  line: f.line,
  citation: citationOf(f),
  severity: f.severity,
  summary: f.summary,
  openedRound: f.openedRound,
  keptOpen: f.history.filter((step) => step.status === 'open'),
});

const headlineOf = (state: RunState, blocking: number): string => {
  const run = state.run;
  if (run === null) return 'no run: nothing has been opened';
  const { maxRounds } = run.policy;
  const findings = blocking === 1 ? '1 blocking finding is' : `${blocking} blocking findings are`;
  switch (state.status) {
    case 'converged':
      return `converged at round ${state.round} of ${maxRounds}: no blocking finding is open`;
    case 'blocked':
      return `blocked at round ${state.round}, the cap of ${maxRounds} rounds: ${findings} still open, and exhaustion is never convergence`;
    default:
      return state.round === 0
        ? `open: no round recorded yet; round 1 of ${maxRounds} ${state.capture === null ? 'needs a captured revision' : 'awaits its report'}`
        : `open after round ${state.round} of ${maxRounds}: ${findings} open, so round ${state.round + 1} is needed`;
  }
};

/** Why the status is what it is: the open blocking findings and the rounds that kept them open. */
export const explain = (state: RunState): Explanation => {
  const blocking = openBlockingFindings(state).map(blockingReason);
  return {
    status: state.status,
    headline: headlineOf(state, blocking.length),
    blocking,
    advisoryOpen: openFindings(state).length - blocking.length,
  };
};

const describeStep = (step: FindingStep): string =>
  step.how === 'opened'
    ? `round ${step.round} opened it`
    : step.how === 'carried'
      ? `round ${step.round} carried it (file untouched)`
      : `round ${step.round} kept it open: ${step.evidence ?? ''}`;

/** The explanation as text for a person. */
export const renderExplanation = (e: Explanation): string => {
  const lines = [e.headline];
  for (const b of e.blocking) {
    lines.push(`- ${b.id.slice(0, 12)} [${b.severity}] ${b.citation} ${b.summary}`);
    for (const step of b.keptOpen) lines.push(`    ${describeStep(step)}`);
  }
  if (e.advisoryOpen > 0) lines.push(`${e.advisoryOpen} advisory finding(s) open; they never block.`);
  return lines.join('\n');
};
