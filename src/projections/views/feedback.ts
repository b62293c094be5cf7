import { type Finding, maxRoundsOf, type RunState } from '../state.js';
import { last as lastOf, toArray } from '../vec.js';
import { citationOf, openBlockingFindings, openFindings } from './findings.js';
import { reopeningsOf, roundsOpenOf } from './history.js';
import { latestReruns, reproductionsPending } from './reproductions.js';
import { describeStall } from './stall.js';

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The id screens show; any unique prefix of 8+ hex characters names a finding in a decision. */
const shownId = (f: Finding) => f.id.slice(0, 12);

/** How the last round ended, when it did not end with a complete review: its diagnosis is the feedback. */
const lastRoundEnding = (state: RunState): ReadonlyArray<string> => {
  const last = lastOf(state.outcomes);
  if (last === undefined || last.round !== state.round || last.result === 'complete') return [];
  const reason = last.reason === null ? '' : `: ${oneLine(last.reason)}`;
  switch (last.result) {
    case 'ci_failed':
      return [`Round ${last.round} ended without a review because CI failed${reason}. Fix that first.`];
    case 'none':
      return [`Round ${last.round} ended without a review${reason}.`];
    case 'partial':
      return [`Round ${last.round} was partial (it can never converge on its own)${reason}.`];
  }
};

/** The cap in force, and who moved it: an extension is part of the brief. */
const capLine = (state: RunState): ReadonlyArray<string> => {
  if (state.extensions.size === 0) return [];
  const policyCap = state.run?.policy.maxRounds ?? 0;
  const by = toArray(state.extensions)
    .map((e) => `${e.rounds} by ${e.by} (${oneLine(e.why)})`)
    .join(', ');
  return [`The cap is ${maxRoundsOf(state)} rounds: the policy's ${policyCap}, extended ${by}.`];
};

/**
 * "Review feedback, round N": the Markdown section a driver hands back to the producer for the
 * next attempt — how the last round ended when it was not reviewed (its diagnosis), what still
 * blocks (with its evidence, how long it has been open, and an id that can be pasted back as a
 * decision), how much advice is pending, the cap in force, and where the full record is.
 */
/** Most corroborated first (the order of the rest is kept): what more reviewers saw is likelier real. */
const byCorroboration = (findings: ReadonlyArray<Finding>): Finding[] =>
  [...findings].sort((a, b) => (b.reviewers?.length ?? 0) - (a.reviewers?.length ?? 0));

/**
 * What the re-run reproductions said, on the captured input (or, before any was re-run there, the
 * last round's input): a fix whose reproduction still fails cannot be decided `fixed` on that input.
 */
const rerunLines = (state: RunState): ReadonlyArray<string> => {
  const reruns = latestReruns(state);
  const pending = reproductionsPending(state);
  if (reruns.length === 0 && pending.length === 0) return [];
  const lines = ['', '### Reproductions re-run'];
  for (const r of reruns) {
    const f = state.findings[r.findingId] as Finding;
    const said =
      r.outcome === 'still-fails'
        ? f.status === 'open'
          ? 'still fails: a `fixed` decision on it is refused for this input'
          : `still fails, though it is ${f.status}`
        : 'no longer fails';
    const output = r.outputSha === null ? '' : ` (output ${r.outputSha.slice(0, 12)})`;
    lines.push('', `- \`${shownId(f)}\` **${citationOf(f)}** round ${r.round}: ${said}${output}`);
  }
  if (pending.length > 0)
    lines.push(
      '',
      `${pending.length} reproduction(s) not yet re-run on round ${state.round + 1}'s input (clearance reproductions, clearance reproduce).`,
    );
  return lines;
};

export const feedbackMarkdown = (state: RunState, record: string): string => {
  const blocking = byCorroboration(openBlockingFindings(state));
  const advisory = openFindings(state).length - blocking.length;
  const cap = maxRoundsOf(state);
  const lines = [`## Review feedback, round ${state.round}`, ''];
  lines.push(
    state.status === 'converged'
      ? state.convergedBy === null
        ? 'The review converged: nothing blocks.'
        : `The review converged by ruling of ${state.convergedBy.by}: ${oneLine(state.convergedBy.why)}.`
      : state.status === 'blocked'
        ? state.stall !== null
          ? `The review is blocked early: it stalled at round ${state.round} of ${cap}: ${describeStall(state, state.stall)}. Only a person can rule now.`
          : `The review is blocked: round ${state.round} was the last of ${cap}. Only a person can rule now.`
        : `${blocking.length} blocking finding${blocking.length === 1 ? '' : 's'} must be fixed or answered before round ${state.round + 1} of ${cap}.`,
  );
  const ending = lastRoundEnding(state);
  const failure = state.lastFailure;
  const notes = [
    ...ending,
    ...(failure === null
      ? []
      : [
          `The last attempt at round ${failure.round} failed (${failure.reason}): ${oneLine(failure.detail)}.`,
        ]),
    ...capLine(state),
  ];
  if (notes.length > 0) lines.push('', ...notes);
  if (blocking.length > 0) {
    lines.push('', '### Blocking');
    for (const f of blocking) {
      const open = roundsOpenOf(state, f);
      lines.push(
        '',
        `- \`${shownId(f)}\` **${citationOf(f)}** (${f.severity}, open ${open} round${open === 1 ? '' : 's'}): ${oneLine(f.summary)}`,
        `  - Evidence: ${oneLine(f.evidence)}`,
      );
      if (f.reviewers !== undefined && f.reviewers.length > 0)
        lines.push(
          `  - Seen by: ${f.reviewers.join(', ')}${(f.mergedFrom?.length ?? 0) > 0 ? ` (${f.mergedFrom?.length} candidate(s) merged in)` : ''}`,
        );
      const last = lastOf(f.steps);
      if (last?.how === 'decided' && last.evidence !== undefined)
        lines.push(`  - Last ruling (round ${last.round}): still open: ${oneLine(last.evidence)}`);
      if (last?.how === 'reopened' && last.evidence !== undefined)
        lines.push(
          `  - Reopened in round ${last.round} (it had been fixed${reopeningsOf(f) > 1 ? `; reopened ${reopeningsOf(f)} times` : ''}): ${oneLine(last.evidence)}`,
        );
    }
    const example = shownId(blocking[0] as Finding);
    lines.push(
      '',
      `Answer each one by its id in the next report's \`decisions\` (the id as shown is enough), e.g. \`{"id": "${example}", "status": "fixed", "evidence": "what changed"}\`; \`open\` with evidence if it still stands, \`withdrawn\` with evidence if it never held; a fixed finding that came back is \`reopened\` with evidence of what changed.`,
    );
  }
  lines.push(...rerunLines(state));
  lines.push('', `Advisory findings open: ${advisory} (they never block).`, '', `Full record: ${record}`);
  return `${lines.join('\n')}\n`;
};
