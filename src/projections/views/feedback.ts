import type { Finding, RunState } from '../state.js';
import { citationOf, openBlockingFindings, openFindings } from './findings.js';

const roundsOpen = (f: Finding) => f.history.filter((s) => s.status === 'open').length;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * "Review feedback, round N": the Markdown section a driver hands back to the producer for the
 * next attempt — what still blocks (with its evidence and how long it has been open), how much
 * advice is pending, and where the full record is.
 */
export const feedbackMarkdown = (state: RunState, record: string): string => {
  const blocking = openBlockingFindings(state);
  const advisory = openFindings(state).length - blocking.length;
  const maxRounds = state.run?.policy.maxRounds ?? 0;
  const lines = [`## Review feedback, round ${state.round}`, ''];
  lines.push(
    state.status === 'converged'
      ? 'The review converged: nothing blocks.'
      : state.status === 'blocked'
        ? `The review is blocked: round ${state.round} was the last of ${maxRounds}. Only a person can rule now.`
        : `${blocking.length} blocking finding${blocking.length === 1 ? '' : 's'} must be fixed or answered before round ${state.round + 1} of ${maxRounds}.`,
  );
  if (blocking.length > 0) {
    lines.push('', '### Blocking');
    for (const f of blocking) {
      const open = roundsOpen(f);
      lines.push(
        '',
        `- \`${f.id.slice(0, 12)}\` **${citationOf(f)}** (${f.severity}, open ${open} round${open === 1 ? '' : 's'}): ${oneLine(f.summary)}`,
        `  - Evidence: ${oneLine(f.evidence)}`,
      );
      const last = f.history[f.history.length - 1];
      if (last?.how === 'decided' && last.evidence !== undefined)
        lines.push(`  - Last ruling (round ${last.round}): still open: ${oneLine(last.evidence)}`);
    }
  }
  lines.push('', `Advisory findings open: ${advisory} (they never block).`, '', `Full record: ${record}`);
  return `${lines.join('\n')}\n`;
};
