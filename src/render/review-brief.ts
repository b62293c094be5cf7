import type { Brief, BriefFinding } from '../projections/views/brief.js';
import { jsonText, markdownLiteral, plainText } from '../text/untrusted.js';

/**
 * The brief an agent reviewer starts the next round from (the MCP prompt `review-brief`): what to
 * review, the report it hands back, the open findings it must decide, and the author's feedback.
 * Markdown that reads the same raw: a reviewer's text is `markdownLiteral`, ids and enums are
 * clearance's.
 */
const text = (s: string): string => markdownLiteral(s.replace(/\s+/g, ' '));

const listed = (f: BriefFinding): string =>
  `- \`${plainText(f.id.slice(0, 12))}\` ${text(f.citation)} (${text(f.severity)}${f.blocking ? ', blocking' : ''}): ${text(f.summary)}${f.disputed === null ? '' : `. Disputed by the author: ${text(f.disputed)}; decide it \`open\` to uphold it, \`withdrawn\` to accept the dispute`}`;

const reportShape = (b: Brief, inputSha: string): string =>
  jsonText({
    runId: b.runId,
    round: b.round,
    inputSha,
    completed: true,
    candidates: [
      {
        file: 'path/in/repo.ts',
        line: 1,
        category: 'correctness',
        summary: 'one line',
        severity: b.severities[0]?.name ?? 'major',
        confirmed: true,
        evidence: 'why it is a problem',
      },
    ],
    decisions: [
      { id: b.toDecide[0]?.id.slice(0, 12) ?? 'FINDING-ID', status: 'fixed', evidence: 'what changed' },
    ],
  });

/** A code block whose fence is longer than any run of backticks inside it: nothing in it can close it. */
const fenced = (code: string): string[] => {
  const fence = '`'.repeat(Math.max(3, ...(code.match(/`+/g) ?? []).map((run) => run.length + 1)));
  return [`${fence}json`, code, fence];
};

export const renderReviewBrief = (b: Brief, feedback: string): string => {
  const lines = [`# Review brief: run ${plainText(b.runId)}, round ${b.round} of ${b.cap}`, ''];
  if (b.status !== 'open') {
    lines.push(
      `The run is ${b.status}: it takes no more reports, so there is nothing to review. ${b.status === 'blocked' ? 'Only a person can move it on.' : 'New commits are a new run’s.'}`,
    );
    return `${[...lines, '', feedback].join('\n')}\n`;
  }
  if (b.input === null) {
    lines.push(
      `Round ${b.round} has no captured input yet: the driver captures it (tool \`capture\`) before the round is reviewed.`,
    );
    return `${[...lines, '', feedback].join('\n')}\n`;
  }
  const severities = b.severities
    .map((s) => `\`${plainText(s.name)}\`${s.blocks ? ' (blocks)' : ''}`)
    .join(', ');
  lines.push(
    `Review input ${text(b.input.inputSha)}: ${b.input.touched.length === 0 ? 'no file changed since the last reviewed input' : `the files changed since the last reviewed input: ${b.input.touched.map(text).join(', ')}`}.`,
    '',
    '## The report',
    '',
    'Hand back one JSON round report (its JSON Schema: `clearance schema report`), for this run, round and input:',
    '',
    ...fenced(reportShape(b, b.input.inputSha)),
    '',
    `- \`candidates\`: each new problem, with its file and line (or a document's \`section\`), a category, a one-line summary, a severity (${severities}), \`confirmed: true\` and the evidence.`,
    `- \`decisions\`: one for every finding listed under "To decide" below, by its id (the 12 characters shown are enough): \`fixed\`, \`open\` (it still stands) or \`withdrawn\` (it never held), each with evidence; a fixed finding that came back is \`reopened\`, with evidence of what changed.${b.untouchedDecisions.length === 0 ? '' : ` A finding in a file the input did not touch may be decided ${b.untouchedDecisions.map((s) => `\`${s}\``).join(' or ')} too.`}`,
    ...(b.notExaminedRequired
      ? [
          '- A report with no candidate says what it did not examine (`notExamined`), or why nothing was skipped.',
        ]
      : []),
    '- Never declare the verdict yourself: clearance derives it from the report.',
    '',
    '## To decide',
    '',
    ...(b.toDecide.length === 0
      ? ['None: no open finding is in a file this input touched, and none is disputed.']
      : b.toDecide.map(listed)),
  );
  if (b.carried.length > 0)
    lines.push(
      '',
      '## Open, in files this input did not touch (they carry forward)',
      '',
      ...b.carried.map(listed),
    );
  return `${[...lines, '', feedback].join('\n')}\n`;
};
