import type { FindingStep, MergedFrom } from '../projections/state.js';
import type { Explanation } from '../projections/views/explain.js';
import { refutedBeforePhrase, rulingPhrase } from './dispute-text.js';
import { outcomeReason } from './outcome-reason.js';
import { placeNotes } from './place-note.js';
import { plain } from './plain-template.js';
import { deferredCause, roundTableLines, sameInputSentence, trendSentence } from './trend-text.js';

/**
 * `clearance explain` as text for a person at a terminal or reading a CI log. The lines and their
 * words are clearance's; every value from the log (summaries, citations, severities, names,
 * reasons, evidence, the headline that embeds a ruling's `by` and `why`) sits inside one of them
 * through `plain`, so a value can never begin a line of its own.
 */

const short = (id: string): string => id.slice(0, 12);

const at = (line: number | null): string => (line === null ? '' : `:${line}`);

const describeStep = (step: FindingStep): string => {
  switch (step.how) {
    case 'opened':
      return plain`round ${step.round} opened it`;
    case 'carried':
      return plain`round ${step.round} carried it (file untouched, or nothing was reviewed)`;
    case 'ruled':
      return plain`ruled ${step.status} by ${step.by ?? '?'} after round ${step.round}: ${step.evidence ?? ''}`;
    case 'reopened':
      return plain`round ${step.round} reopened it (it had been fixed): ${step.evidence ?? ''}`;
    default:
      return plain`round ${step.round} kept it open: ${step.evidence ?? ''}`;
  }
};

/** Who proposed a merged finding and what it absorbed, as indented lines. */
const provenanceLines = (
  m: Readonly<{ reviewers: ReadonlyArray<string>; mergedFrom: ReadonlyArray<MergedFrom> }>,
): string[] => [
  ...(m.reviewers.length > 0
    ? [plain`    proposed by ${m.reviewers.join(', ')} (corroborated ${m.reviewers.length}×)`]
    : []),
  ...m.mergedFrom.map(
    (from) =>
      plain`    merged from ${short(from.id)} (${from.category}, ${from.file}${at(from.line)}) by ${from.reviewer}`,
  ),
];

const panelLine = (p: Explanation['panels'][number]): string => {
  const absent = p.absent.map((a) => plain`${a.expert} (${a.reason}: ${a.detail})`).join('; ');
  const who = p.contributors.join(', ') || 'no one';
  return absent === ''
    ? plain`round ${p.round} reviewed by ${who}`
    : plain`round ${p.round} reviewed by ${who}; absent: ${absent}`;
};

/** The per-round table, the advisory trend and the same-input count: the numbers are clearance's. */
const trendLines = (e: Explanation): string[] => {
  const trend = trendSentence(e.trend, e.rounds);
  const sameInput = sameInputSentence(e.sameInput);
  return [
    ...(e.rounds.length === 0 ? [] : ['rounds:', ...roundTableLines(e.rounds)]),
    ...(trend === null ? [] : [trend]),
    ...(sameInput === null ? [] : [sameInput]),
  ];
};

/** Each deferred candidate: where, what, who proposed it, why it waits for a follow-up, its evidence's first line. */
const deferredLines = (deferred: Explanation['deferred']): string[] =>
  deferred.length === 0
    ? []
    : [
        `Deferred to a follow-up: ${deferred.length} (kept on the record, never findings, never blocking)`,
        ...deferred.flatMap((d) => [
          plain`- ${short(d.id)} [${d.severity}] ${d.citation} ${d.summary}`,
          d.reviewers.length === 0
            ? plain`    ${deferredCause(d)}; from an anonymous report`
            : plain`    ${deferredCause(d)}; proposed by ${d.reviewers.join(', ')}`,
          plain`    evidence: ${d.evidence.split('\n')[0] ?? ''}`,
        ]),
      ];

/** A refuted candidate, or one refuted before: where, what, who, and the first line of why. */
const refutedLine = (r: Explanation['refuted'][number]): string => {
  const before = refutedBeforePhrase(r);
  const why = r.evidence.split('\n')[0] ?? '';
  return before === null
    ? plain`refuted in round ${r.round}, dropped: ${short(r.id)} [${r.severity}] ${r.file}${at(r.line)} ${r.summary} (by ${r.by.join(', ')}: ${why})`
    : plain`refuted before, dropped again in round ${r.round}: ${short(r.id)} [${r.severity}] ${r.file}${at(r.line)} ${r.summary} (offered again by ${r.by.join(', ')} on unchanged code; ${before}: ${why})`;
};

/** A dispute: the finding, the author's reason, and its ruling (or that it waits for one). */
const disputeLine = (d: Explanation['disputes'][number]): string => {
  const ruled =
    d.ruling === null
      ? "; awaiting the next round's ruling"
      : plain`; ${rulingPhrase(d.ruling)}: ${d.ruling.evidence.split('\n')[0] ?? ''}`;
  return plain`${short(d.findingId)} [${d.severity}] ${d.citation} disputed for round ${d.round}: ${d.reason}${ruled}`;
};

/** The explanation as text for a person. */
export const renderExplanation = (e: Explanation): string => {
  const lines = [plain`${e.headline}`];
  for (const b of e.blocking) {
    lines.push(plain`- ${short(b.id)} [${b.severity}] ${b.citation} ${b.summary}`);
    lines.push(...placeNotes(b, true).map((note) => plain`    ${note}`));
    lines.push(...provenanceLines(b));
    for (const step of b.keptOpen) lines.push(`    ${describeStep(step)}`);
  }
  lines.push(...e.panels.map(panelLine));
  // the blocking ones are shown above with their history
  for (const m of e.merges.filter((m) => !(m.blocking && m.status === 'open'))) {
    lines.push(
      plain`merged: ${short(m.id)} [${m.severity}] ${m.citation} (${m.status}${m.blocking ? '' : ', advisory'}, round ${m.openedRound})`,
    );
    lines.push(...provenanceLines(m));
  }
  for (const r of e.refuted) lines.push(refutedLine(r));
  lines.push(...e.disputes.map(disputeLine));
  for (const r of e.reruns)
    lines.push(
      plain`${short(r.findingId)} reproduction re-run on round ${r.round}'s input ${short(r.inputSha)}: ${r.outcome === 'still-fails' ? 'still fails' : 'no longer fails'}${r.outputSha === null ? '' : ` (output ${short(r.outputSha)})`}`,
    );
  if (e.advisoryOpen > 0) lines.push(`${e.advisoryOpen} advisory finding(s) open; they never block.`);
  for (const o of e.incomplete)
    lines.push(
      plain`round ${o.round} ended ${o.result}${outcomeReason(o) === null ? '' : `: ${outcomeReason(o)}`} (it cannot converge the run)`,
    );
  for (const x of e.extensions)
    lines.push(plain`extended by ${x.rounds} round(s) by ${x.by} after round ${x.round}: ${x.why}`);
  for (const r of e.rulings)
    lines.push(plain`${short(r.findingId)} ruled ${r.status} by ${r.by} after round ${r.round}: ${r.why}`);
  lines.push(...trendLines(e));
  lines.push(...deferredLines(e.deferred));
  return lines.join('\n');
};
