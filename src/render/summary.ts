import type { CostReport } from '../projections/views/cost.js';
import type { Explanation } from '../projections/views/explain.js';
import type { StatusView } from '../projections/views/status.js';
import { markdownText } from '../text/untrusted.js';
import { describeCost } from './cost-text.js';
import { outcomeReason } from './outcome-reason.js';
import {
  deferredCause,
  ROUND_COLUMNS,
  ROUND_COLUMNS_LEGEND,
  sameInputSentence,
  trendSentence,
} from './trend-text.js';

/** The gate's answer, when the summary is written by `gate`. */
export type GateLine = Readonly<{ approved: boolean; message: string; reason?: string }>;

export type SummaryInput = Readonly<{
  status: StatusView;
  explanation: Explanation;
  cost: CostReport;
  gate?: GateLine;
}>;

/** Text from a log is data, never Markdown: one inline run, so a cell stays one cell. */
const cell = markdownText;

/**
 * A GitHub step summary: the verdict and why, the blocking findings, the rounds with their trend,
 * the candidates deferred to a follow-up, the cost.
 */
export const stepSummary = ({ status, explanation, cost, gate }: SummaryInput): string => {
  const run = status.runId ?? '?';
  const lines = [
    `## clearance: ${markdownText(run)} is ${status.status}`,
    '',
    markdownText(explanation.headline),
    '',
  ];
  if (gate !== undefined) {
    lines.push(
      gate.approved
        ? `**Gate: approved.** ${markdownText(gate.message)}`
        : `**Gate: refused (${markdownText(gate.reason ?? 'refused')}).** ${markdownText(gate.message)}`,
      '',
    );
  }
  lines.push(`### Blocking findings: ${explanation.blocking.length}`, '');
  if (explanation.blocking.length > 0) {
    lines.push('| finding | severity | where | summary | open for |', '| --- | --- | --- | --- | --- |');
    for (const b of explanation.blocking) {
      lines.push(
        `| \`${b.id.slice(0, 12)}\` | ${cell(b.severity)} | ${cell(b.citation)} | ${cell(b.summary)} | ${b.keptOpen.length} round(s) |`,
      );
    }
    lines.push('');
  }
  if (explanation.advisoryOpen > 0)
    lines.push(`${explanation.advisoryOpen} advisory finding(s) open; they never block.`, '');
  lines.push(`### Rounds: ${status.round} of ${status.maxRounds ?? '?'}`, '');
  if (status.rounds.length > 0) {
    const headings = [...ROUND_COLUMNS.map((c) => c.heading), 'reason'];
    lines.push(`| ${headings.join(' | ')} |`, `|${headings.map(() => ' --- |').join('')}`);
    for (const r of status.rounds)
      lines.push(
        `| ${ROUND_COLUMNS.map((c) => markdownText(c.cell(r))).join(' | ')} | ${cell(outcomeReason(r) ?? '')} |`,
      );
    lines.push('', markdownText(ROUND_COLUMNS_LEGEND), '');
  }
  const trend = trendSentence(status.trend, status.rounds);
  if (trend !== null) lines.push(markdownText(trend), '');
  const sameInput = sameInputSentence(status.sameInput);
  if (sameInput !== null) lines.push(markdownText(sameInput), '');
  const { deferred } = explanation;
  if (deferred.length > 0) {
    lines.push(
      `### Deferred to a follow-up: ${deferred.length}`,
      '',
      '| candidate | severity | where | summary | why |',
      '| --- | --- | --- | --- | --- |',
    );
    for (const d of deferred)
      lines.push(
        `| \`${d.id.slice(0, 12)}\` | ${cell(d.severity)} | ${cell(d.citation)} | ${cell(d.summary)} | ${deferredCause(d, cell)} |`,
      );
    lines.push('');
  }
  const budget = Object.keys(cost.budget).length === 0 ? ' (no budget)' : ` of ${describeCost(cost.budget)}`;
  lines.push('### Cost', '', `${markdownText(describeCost(cost.spent))}${markdownText(budget)}`, '');
  return lines.join('\n');
};
