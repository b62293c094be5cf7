import {
  type Extension,
  type Finding,
  type FindingStatus,
  type FindingStep,
  type MergedFrom,
  maxRoundsOf,
  type Panel,
  type Refuted,
  type Rerun,
  type RoundOutcome,
  type Ruling,
  type RunState,
  type RunStatus,
  type Stall,
} from '../state.js';
import { last as lastOf, toArray } from '../vec.js';
import { citationOf, openBlockingFindings, openFindings } from './findings.js';
import { historyOf } from './history.js';
import { type BlockedReason, blockedReasonOf, describeStall } from './stall.js';

export type BlockingReason = Readonly<{
  id: string;
  file: string;
  line: number | null;
  citation: string;
  severity: string;
  summary: string;
  openedRound: number;
  /** every round that kept it open, and how: decided open, carried forward untouched, or reopened */
  keptOpen: ReadonlyArray<FindingStep>;
  /** the reviewers who proposed it, when its round was merged from contributions */
  reviewers: ReadonlyArray<string>;
  /** how many reviewers proposed it (0 for a finding from a single-report round) */
  corroboration: number;
  /** the candidates the merge folded into it */
  mergedFrom: ReadonlyArray<MergedFrom>;
}>;

/** A finding a merge made from more than one candidate, or that more than one reviewer proposed. */
export type MergeReason = Readonly<{
  id: string;
  citation: string;
  severity: string;
  status: FindingStatus;
  blocking: boolean;
  openedRound: number;
  reviewers: ReadonlyArray<string>;
  corroboration: number;
  mergedFrom: ReadonlyArray<MergedFrom>;
}>;

export type Explanation = Readonly<{
  status: RunStatus;
  headline: string;
  /** while blocked: by its cap, or stalled early */
  blockedReason: BlockedReason | null;
  /** while stalled: the round that stalled it and the findings that did */
  stall: Stall | null;
  blocking: ReadonlyArray<BlockingReason>;
  advisoryOpen: number;
  /** rounds that ended without a complete review, and why: none of them can converge a run */
  incomplete: ReadonlyArray<RoundOutcome>;
  /** what a person decided past the cap, on the record */
  rulings: ReadonlyArray<Ruling>;
  extensions: ReadonlyArray<Extension>;
  /** the person whose ruling made the run converge */
  convergedBy: string | null;
  /** each round merged from contributions: who reviewed it, who was absent and why */
  panels: ReadonlyArray<Panel>;
  /** every finding, whatever its status, that a merge made from several candidates or reviewers */
  merges: ReadonlyArray<MergeReason>;
  /** refuted candidates: dropped, never findings, with who refuted them and why */
  refuted: ReadonlyArray<Refuted>;
  /** every reproduction re-run at the start of a re-review, and what it did */
  reruns: ReadonlyArray<Rerun>;
}>;

const blockingReason = (state: RunState, f: Finding): BlockingReason => ({
  id: f.id,
  file: f.file,
  line: f.line,
  citation: citationOf(f),
  severity: f.severity,
  summary: f.summary,
  openedRound: f.openedRound,
  keptOpen: historyOf(state, f).filter((step) => step.status === 'open'),
  reviewers: f.reviewers ?? [],
  corroboration: f.reviewers?.length ?? 0,
  mergedFrom: f.mergedFrom ?? [],
});

const mergedFindings = (state: RunState): ReadonlyArray<MergeReason> =>
  Object.values(state.findings)
    .filter((f) => (f.reviewers?.length ?? 0) > 1 || (f.mergedFrom?.length ?? 0) > 0)
    .map((f) => ({
      id: f.id,
      citation: citationOf(f),
      severity: f.severity,
      status: f.status,
      blocking: f.blocking,
      openedRound: f.openedRound,
      reviewers: f.reviewers ?? [],
      corroboration: f.reviewers?.length ?? 0,
      mergedFrom: f.mergedFrom ?? [],
    }));

const headlineOf = (state: RunState, blocking: number): string => {
  const run = state.run;
  if (run === null) return 'no run: nothing has been opened';
  const cap = maxRoundsOf(state);
  const findings = blocking === 1 ? '1 blocking finding is' : `${blocking} blocking findings are`;
  const last = lastOf(state.outcomes);
  const lastIncomplete =
    last !== undefined && last.result !== 'complete' ? `, and round ${last.round} ended ${last.result}` : '';
  switch (state.status) {
    case 'converged':
      return state.convergedBy !== null
        ? `converged by ruling of ${state.convergedBy.by} after round ${state.round}: ${state.convergedBy.why}`
        : `converged at round ${state.round} of ${cap}: no blocking finding is open`;
    case 'blocked':
      return state.stall !== null
        ? `blocked early at round ${state.round} of ${cap}: stalled, ${describeStall(state, state.stall)}; only a person can go on`
        : `blocked at round ${state.round}, the cap of ${cap} rounds: ${findings} still open${lastIncomplete}; exhaustion is never convergence`;
    default:
      return state.round === 0
        ? `open: no round recorded yet; round 1 of ${cap} ${state.capture === null ? 'needs a captured revision' : 'awaits its report'}`
        : `open after round ${state.round} of ${cap}: ${findings} open${lastIncomplete}, so round ${state.round + 1} is needed`;
  }
};

/** Why the status is what it is: the open blocking findings and the rounds that kept them open. */
export const explain = (state: RunState): Explanation => {
  const blocking = openBlockingFindings(state).map((f) => blockingReason(state, f));
  return {
    status: state.status,
    headline: headlineOf(state, blocking.length),
    blockedReason: blockedReasonOf(state),
    stall: state.status === 'blocked' ? state.stall : null,
    blocking,
    advisoryOpen: openFindings(state).length - blocking.length,
    incomplete: toArray(state.outcomes).filter((o) => o.result !== 'complete'),
    rulings: toArray(state.rulings),
    extensions: toArray(state.extensions),
    convergedBy: state.convergedBy?.by ?? null,
    panels: toArray(state.panels),
    merges: mergedFindings(state),
    refuted: toArray(state.refuted),
    reruns: toArray(state.reruns),
  };
};

const describeStep = (step: FindingStep): string => {
  switch (step.how) {
    case 'opened':
      return `round ${step.round} opened it`;
    case 'carried':
      return `round ${step.round} carried it (file untouched, or nothing was reviewed)`;
    case 'ruled':
      return `ruled ${step.status} by ${step.by ?? '?'} after round ${step.round}: ${step.evidence ?? ''}`;
    case 'reopened':
      return `round ${step.round} reopened it (it had been fixed): ${step.evidence ?? ''}`;
    default:
      return `round ${step.round} kept it open: ${step.evidence ?? ''}`;
  }
};

/** Who proposed a merged finding and what it absorbed, as indented lines. */
const provenanceLines = (
  m: Readonly<{ reviewers: ReadonlyArray<string>; mergedFrom: ReadonlyArray<MergedFrom> }>,
): string[] => [
  ...(m.reviewers.length > 0
    ? [`    proposed by ${m.reviewers.join(', ')} (corroborated ${m.reviewers.length}×)`]
    : []),
  ...m.mergedFrom.map(
    (from) =>
      `    merged from ${from.id.slice(0, 12)} (${from.category}, ${from.file}${from.line === null ? '' : `:${from.line}`}) by ${from.reviewer}`,
  ),
];

/** The explanation as text for a person. */
export const renderExplanation = (e: Explanation): string => {
  const lines = [e.headline];
  for (const b of e.blocking) {
    lines.push(`- ${b.id.slice(0, 12)} [${b.severity}] ${b.citation} ${b.summary}`);
    lines.push(...provenanceLines(b));
    for (const step of b.keptOpen) lines.push(`    ${describeStep(step)}`);
  }
  for (const p of e.panels) {
    const absent = p.absent.map((a) => `${a.expert} (${a.reason}: ${a.detail})`).join('; ');
    lines.push(
      `round ${p.round} reviewed by ${p.contributors.join(', ') || 'no one'}${absent === '' ? '' : `; absent: ${absent}`}`,
    );
  }
  // the blocking ones are shown above with their history
  for (const m of e.merges.filter((m) => !(m.blocking && m.status === 'open'))) {
    lines.push(
      `merged: ${m.id.slice(0, 12)} [${m.severity}] ${m.citation} (${m.status}${m.blocking ? '' : ', advisory'}, round ${m.openedRound})`,
    );
    lines.push(...provenanceLines(m));
  }
  for (const r of e.refuted)
    lines.push(
      `refuted in round ${r.round}, dropped: ${r.id.slice(0, 12)} [${r.severity}] ${r.file}${r.line === null ? '' : `:${r.line}`} ${r.summary} (by ${r.by.join(', ')}: ${r.evidence.split('\n')[0] ?? ''})`,
    );
  for (const r of e.reruns)
    lines.push(
      `${r.findingId.slice(0, 12)} reproduction re-run on round ${r.round}'s input ${r.inputSha.slice(0, 12)}: ${r.outcome === 'still-fails' ? 'still fails' : 'no longer fails'}${r.outputSha === null ? '' : ` (output ${r.outputSha.slice(0, 12)})`}`,
    );
  if (e.advisoryOpen > 0) lines.push(`${e.advisoryOpen} advisory finding(s) open; they never block.`);
  for (const o of e.incomplete)
    lines.push(
      `round ${o.round} ended ${o.result}${o.reason === null ? '' : `: ${o.reason}`} (it cannot converge the run)`,
    );
  for (const x of e.extensions)
    lines.push(`extended by ${x.rounds} round(s) by ${x.by} after round ${x.round}: ${x.why}`);
  for (const r of e.rulings)
    lines.push(`${r.findingId.slice(0, 12)} ruled ${r.status} by ${r.by} after round ${r.round}: ${r.why}`);
  return lines.join('\n');
};
