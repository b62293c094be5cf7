import { type CostReport, describeCost } from '../projections/views/cost.js';
import type { Explanation } from '../projections/views/explain.js';
import type { StatusView } from '../projections/views/status.js';
import { markdownText } from '../text/untrusted.js';

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

/** A GitHub step summary: the verdict and why, the blocking findings, the rounds, the cost. */
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
    lines.push('| round | result | reason |', '| --- | --- | --- |');
    for (const r of status.rounds) lines.push(`| ${r.round} | ${r.result} | ${cell(r.reason ?? '')} |`);
    lines.push('');
  }
  const budget = Object.keys(cost.budget).length === 0 ? ' (no budget)' : ` of ${describeCost(cost.budget)}`;
  lines.push('### Cost', '', `${markdownText(describeCost(cost.spent))}${markdownText(budget)}`, '');
  return lines.join('\n');
};
