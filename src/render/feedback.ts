import type { RunState } from '../projections/state.js';
import { type Feedback, type FeedbackFinding, feedbackOf } from '../projections/views/feedback.js';
import { markdownLiteral, plainText } from '../text/untrusted.js';
import { rulingPhrase } from './dispute-text.js';
import { outcomeReason } from './outcome-reason.js';
import { deferredCause } from './trend-text.js';

/**
 * "Review feedback, round N" as Markdown: printed to a terminal and handed to an agent as its next
 * brief, which it reads raw. Every value a reviewer or a person supplied (summaries, citations,
 * severities, evidence, names, reasons) is `markdownLiteral`: as it was where nothing in it is
 * Markdown, else one code span, so none can start a line, a heading, a link or a runner command,
 * and none is buried in backslashes; the ids, numbers and enums are clearance's.
 */

/** A value from the log: its whitespace runs one space, trimmed, as the brief always showed it. */
const text = (s: string): string => markdownLiteral(s.replace(/\s+/g, ' '));

/**
 * The id screens show; any unique prefix of 8+ hex characters names a finding in a decision. Ids
 * and hashes are clearance's (hex), shown in code spans; `plainText` only makes sure of it.
 */
const shownId = (id: string): string => plainText(id.slice(0, 12));

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

const verdictLine = (fb: Feedback): string => {
  if (fb.status === 'converged')
    return fb.convergedBy === null
      ? 'The review converged: nothing blocks.'
      : `The review converged by ruling of ${text(fb.convergedBy.by)}: ${text(fb.convergedBy.why)}.`;
  if (fb.status === 'blocked') {
    if (fb.stall === null)
      return `The review is blocked: round ${fb.round} was the last of ${fb.cap}. Only a person can rule now.`;
    return fb.blockedReason === 'disputed'
      ? `The review is blocked early at round ${fb.round} of ${fb.cap}: reviewers and author disagree: ${fb.stall}. Only a person can rule now.`
      : `The review is blocked early: it stalled at round ${fb.round} of ${fb.cap}: ${fb.stall}. Only a person can rule now.`;
  }
  return `${plural(fb.blocking.length, 'blocking finding')} must be fixed or answered before round ${fb.round + 1} of ${fb.cap}.`;
};

/** How the last round ended when it was not reviewed: its diagnosis is the feedback. */
const endingLines = ({ ending }: Feedback): string[] => {
  if (ending === null) return [];
  const said = outcomeReason(ending);
  const reason = said === null ? '' : `: ${text(said)}`;
  switch (ending.result) {
    case 'ci_failed':
      return [`Round ${ending.round} ended without a review because CI failed${reason}. Fix that first.`];
    case 'none':
      return [`Round ${ending.round} ended without a review${reason}.`];
    default:
      return [`Round ${ending.round} was partial (it can never converge on its own)${reason}.`];
  }
};

/** The cap in force, and who moved it: an extension is part of the brief. */
const capLines = (fb: Feedback): string[] => {
  if (fb.extensions.length === 0) return [];
  const by = fb.extensions.map((e) => `${e.rounds} by ${text(e.by)} (${text(e.why)})`).join(', ');
  return [`The cap is ${fb.cap} rounds: the policy's ${fb.policyCap}, extended ${by}.`];
};

const blockingLines = (f: FeedbackFinding): string[] => {
  const lines = [
    '',
    `- \`${shownId(f.id)}\` **${text(f.citation)}** (${text(f.severity)}, open ${plural(f.roundsOpen, 'round')}): ${text(f.summary)}`,
    `  - Evidence: ${text(f.evidence)}`,
  ];
  if (f.reviewers.length > 0)
    lines.push(
      `  - Seen by: ${f.reviewers.map(text).join(', ')}${f.mergedIn > 0 ? ` (${f.mergedIn} candidate(s) merged in)` : ''}`,
    );
  if (f.lastWord?.how === 'decided')
    lines.push(`  - Last ruling (round ${f.lastWord.round}): still open: ${text(f.lastWord.evidence)}`);
  if (f.lastWord?.how === 'reopened')
    lines.push(
      `  - Reopened in round ${f.lastWord.round} (it had been fixed${f.reopenings > 1 ? `; reopened ${f.reopenings} times` : ''}): ${text(f.lastWord.evidence)}`,
    );
  for (const d of f.disputes)
    lines.push(
      `  - Disputed for round ${d.round}: ${text(d.reason)}; ${d.ruling === null ? "awaiting the next round's ruling" : `${rulingPhrase(d.ruling, text)}: ${text(d.ruling.evidence)}`}`,
    );
  return lines;
};

/**
 * The disputes the next round must rule on: the reviewers' brief. Each needs a decision whether
 * its file was touched or not; the author's reason is theirs, shown as such.
 */
const pendingDisputeLines = (fb: Feedback): string[] => {
  if (fb.pendingDisputes.length === 0) return [];
  const lines = [
    '',
    `### Disputed: round ${fb.round + 1} must rule on each`,
    '',
    "The author disputes these findings and changed nothing for them. The next report must decide each one by its id, its file touched or not: `open` with evidence upholds the finding (answer the author's reason), `withdrawn` with evidence accepts the dispute. A report that leaves one undecided is refused.",
  ];
  for (const d of fb.pendingDisputes)
    lines.push(
      '',
      `- \`${shownId(d.findingId)}\` **${text(d.citation)}** (${text(d.severity)}${d.blocking ? ', blocking' : ''}): ${text(d.summary)}`,
      `  - The author's reason: ${text(d.reason)}`,
    );
  return lines;
};

/**
 * What the re-run reproductions said, on the captured input (or, before any was re-run there, the
 * last round's input): a fix whose reproduction still fails cannot be decided `fixed` on that input.
 */
const rerunLines = (fb: Feedback): string[] => {
  if (fb.reruns.length === 0 && fb.pendingReproductions === 0) return [];
  const lines = ['', '### Reproductions re-run'];
  for (const r of fb.reruns) {
    const said =
      r.outcome === 'still-fails'
        ? r.findingStatus === 'open'
          ? 'still fails: a `fixed` decision on it is refused for this input'
          : `still fails, though it is ${r.findingStatus}`
        : 'no longer fails';
    const output = r.outputSha === null ? '' : ` (output ${shownId(r.outputSha)})`;
    lines.push('', `- \`${shownId(r.id)}\` **${text(r.citation)}** round ${r.round}: ${said}${output}`);
  }
  if (fb.pendingReproductions > 0)
    lines.push(
      '',
      `${fb.pendingReproductions} reproduction(s) not yet re-run on round ${fb.round + 1}'s input: \`reproductions\` lists them, \`reproduce\` records what each did.`,
    );
  return lines;
};

/**
 * The candidates deferred to a follow-up: on the record, so the author knows they were heard, and
 * not this loop's to fix, so no decision is asked for them.
 */
const deferredLines = (fb: Feedback): string[] => {
  const n = fb.deferred.length;
  if (n === 0) return [];
  const lines = [
    '',
    '### Deferred to a follow-up',
    '',
    `${plural(n, 'candidate')} the policy does not admit to this loop ${n === 1 ? 'is' : 'are'} kept on the record for a follow-up: not this loop's to fix, and no decision is needed for ${n === 1 ? 'it' : 'them'}.`,
  ];
  for (const d of fb.deferred) {
    lines.push(
      '',
      `- \`${shownId(d.id)}\` **${text(d.citation)}** (${text(d.severity)}): ${text(d.summary)}`,
      `  - Why: ${deferredCause(d, text)}`,
    );
    if (d.reviewers.length > 0) lines.push(`  - Seen by: ${d.reviewers.map(text).join(', ')}`);
  }
  return lines;
};

/**
 * What the author does with the blocking findings: answer each in the next report while the run is
 * open; once it is blocked no report is taken, and only a person can move it on.
 */
const whatNow = (fb: Feedback, first: FeedbackFinding): string =>
  fb.status === 'blocked'
    ? 'The run is blocked, so it takes no more reports: a person may rule on each blocking finding (`rule`), or give the run more rounds (`extend`), after which the next round takes a report again.'
    : `Answer each one by its id in the next report's \`decisions\` (the id as shown is enough), e.g. \`{"id": "${shownId(first.id)}", "status": "fixed", "evidence": "what changed"}\`; \`open\` with evidence if it still stands, \`withdrawn\` with evidence if it never held; a fixed finding that came back is \`reopened\` with evidence of what changed.${disputeHow(fb)}`;

/** How the author disputes a finding they believe wrong, when the policy allows it. */
const disputeHow = (fb: Feedback): string =>
  fb.disputes.allowed
    ? ` If you believe a finding is wrong and change nothing for it, dispute it (\`dispute\`, with one line of reasoning) before the next round's review starts: that round must rule on it, \`open\` upholding it or \`withdrawn\` accepting the dispute; a blocking finding upheld over ${plural(fb.disputes.blockAfter, 'dispute')} blocks the run for a person to rule.`
    : '';

/** The feedback as Markdown; `record` says where the full record is (clearance's words, not a reviewer's). */
export const renderFeedback = (fb: Feedback, record: string): string => {
  const lines = [`## Review feedback, round ${fb.round}`, '', verdictLine(fb)];
  const notes = [
    ...endingLines(fb),
    ...(fb.failure === null
      ? []
      : [
          `The last attempt at round ${fb.failure.round} failed (${fb.failure.reason}): ${text(fb.failure.detail)}.`,
        ]),
    ...capLines(fb),
  ];
  if (notes.length > 0) lines.push('', ...notes);
  const [first] = fb.blocking;
  if (first !== undefined) {
    lines.push('', '### Blocking', ...fb.blocking.flatMap(blockingLines));
    lines.push('', whatNow(fb, first));
  } else if (fb.status === 'converged') {
    lines.push('', 'The run is final: it takes no more rounds. New commits are reviewed by a new run.');
  }
  lines.push(...pendingDisputeLines(fb));
  lines.push(...rerunLines(fb));
  lines.push(...deferredLines(fb));
  lines.push(
    '',
    `Advisory findings open: ${fb.advisoryOpen} (they never block).`,
    '',
    `Full record: ${record}`,
  );
  return `${lines.join('\n')}\n`;
};

/** "Review feedback, round N" for a run: the Markdown a driver hands back to the producer. */
export const feedbackMarkdown = (state: RunState, record: string): string =>
  renderFeedback(feedbackOf(state), record);
