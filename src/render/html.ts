import { findingsInOrder } from '../projections/finding-index.js';
import type { Finding, FindingStep, RunState, Suppressed } from '../projections/state.js';
import { toArray } from '../projections/vec.js';
import { type CostReport, costReport } from '../projections/views/cost.js';
import { explain } from '../projections/views/explain.js';
import { historyOf } from '../projections/views/finding-history.js';
import { citationOf, findingNow } from '../projections/views/findings.js';
import { statusOf } from '../projections/views/status.js';
import { htmlText } from '../text/untrusted.js';
import { describeCost } from './cost-text.js';
import { refutedBeforePhrase, rulingPhrase } from './dispute-text.js';
import { deferredSection, roundsSection } from './html-rounds.js';
import { REPORT_CSS } from './html-style.js';
import { html, type Markup } from './html-template.js';
import { placeNotes } from './place-note.js';
import type { RunHistory, TimelineEntry } from './run-history.js';
import { deferredCause } from './trend-text.js';

/**
 * `clearance report --html`: one self-contained page for a person auditing how a verdict was
 * reached. No script, no network, no external asset (a Content-Security-Policy of `default-src
 * 'none'` makes sure of it); every value from the log goes through the escaping template.
 */

export type ReportOptions = Readonly<{ toolVersion: string }>;

const short = (id: string) => id.slice(0, 12);

const stepText = (step: FindingStep, recordedBy: RunHistory['recordedBy']): string => {
  const who = step.how === 'ruled' ? step.by : recordedBy[step.round];
  const verb = {
    opened: 'opened',
    decided: 'decided',
    carried: 'carried forward',
    ruled: 'ruled',
    reopened: 'reopened',
  }[step.how];
  return `round ${step.round}: ${verb}, ${step.status}${who === undefined ? '' : ` (by ${who})`}`;
};

const findingArticle = (state: RunState, found: Finding, history: RunHistory): Markup => {
  const f = findingNow(state, found);
  // the citation its round checked is the reviewer's, wherever the finding stands now
  const cited = citationOf(f.cited === undefined ? f : { ...f.cited, section: f.section });
  const checks = history.citations[f.openedRound]?.filter((c) => c.citation === cited) ?? [];
  const notes = placeNotes(f);
  return html`<article class="finding ${f.status}${f.blocking ? ' blocking' : ''}" id="finding-${f.id}" data-finding="${f.id}">
<p><span class="tag">${f.status}</span><span class="tag">${f.blocking ? 'blocking' : 'advisory'}</span><span class="tag">${f.severity}</span><span class="tag">${f.category}</span>
<strong class="summary">${f.summary}</strong></p>
<dl>
<dt>where</dt><dd><code class="citation">${citationOf(f)}</code>${notes.length === 0 ? '' : html` <span class="muted place">(${notes.join('; ')})</span>`}</dd>
<dt>finding id</dt><dd class="id">${f.id}</dd>
<dt>evidence</dt><dd class="evidence">${f.evidence}</dd>
${f.principle === null ? '' : html`<dt>principle</dt><dd>${f.principle}</dd>`}
${f.reproduction === null ? '' : html`<dt>reproduction</dt><dd><code>${f.reproduction.command}</code> — expected: ${f.reproduction.expected}</dd>`}
${(f.disputes ?? []).map((d) => html`<dt>disputed</dt><dd class="dispute">for round ${d.round}: <span class="reason">${d.reason}</span>; ${d.ruling === null ? "awaiting the next round's ruling" : html`${rulingPhrase(d.ruling)}: <span class="evidence">${d.ruling.evidence}</span>`}</dd>`)}
${checks.map((c) => html`<dt>citation check</dt><dd class="citation-check">${c.resolved ? 'resolved' : `did not resolve${c.reason === undefined ? '' : `: ${c.reason}`}`} at the captured revision</dd>`)}
</dl>
<ol class="history">${historyOf(state, f).map((step) => html`<li>${stepText(step, history.recordedBy)}${step.evidence === undefined ? '' : html`: <span class="evidence">${step.evidence}</span>`}</li>`)}</ol>
</article>`;
};

const suppressedItem = (s: Suppressed): Markup =>
  html`<li>${s.severity} <code>${citationOf(s)}</code> ${s.summary} <span class="muted">(${s.reason === 'late' ? 'after round 1' : 'over the allowance'}; candidate ${short(s.id)})</span></li>`;

const timelineItem = (t: TimelineEntry): Markup => {
  const effects: Array<string | Markup> = [];
  if (t.opened.length > 0) effects.push(`opened ${t.opened.map(short).join(', ')}`);
  for (const c of t.changed) effects.push(`${short(c.id)}: ${c.from} → ${c.to}`);
  for (const m of t.moved) effects.push(`${short(m.id)} moved ${m.from} → ${m.to}`);
  for (const s of t.suppressed) effects.push(`suppressed ${s.severity} ${short(s.id)} (${s.reason})`);
  for (const d of t.deferred)
    effects.push(
      html`deferred ${d.severity} ${short(d.id)} <code>${citationOf(d)}</code> to a follow-up (${{ markup: deferredCause(d, htmlText) }})`,
    );
  for (const r of t.refuted) {
    const before = refutedBeforePhrase(r);
    effects.push(
      before === null
        ? html`refuted ${r.severity} ${short(r.id)} <code>${citationOf(r)}</code> by ${r.by.join(', ')}: ${r.evidence}`
        : html`refuted before: ${r.severity} ${short(r.id)} <code>${citationOf(r)}</code> offered again by ${r.by.join(', ')} on unchanged code, ${before}: ${r.evidence}`,
    );
  }
  for (const d of t.disputesRuled)
    effects.push(html`dispute of ${short(d.id)} ${rulingPhrase(d.ruling)}: ${d.ruling.evidence}`);
  if (t.failure !== null) effects.push(`attempt failed (${t.failure.reason}): ${t.failure.detail}`);
  if (t.note !== null && t.failure === null) effects.push(t.note);
  if (t.convergedBy !== null) effects.push(`converged by ruling of ${t.convergedBy}`);
  if (t.rejection !== null)
    effects.push(html`<span class="refused">refused ${t.rejection.code}: ${t.rejection.message}</span>`);
  return html`<li data-type="${t.type}"><strong>#${t.seq} ${t.type}</strong>${t.round === null ? '' : ` round ${t.round}`} → <span class="status-${t.status}">${t.status}</span>
<span class="muted">${t.at ?? ''}${t.by === null ? '' : ` by ${t.by}`}</span>${effects.length === 0 ? '' : html`<ul>${effects.map((e) => html`<li>${e}</li>`)}</ul>`}</li>`;
};

const costSection = (cost: CostReport): Markup => html`<section id="cost"><h2>Cost</h2>
<p class="panel">Spent <strong>${describeCost(cost.spent)}</strong>${Object.keys(cost.budget).length === 0 ? ' (no budget)' : html` of ${describeCost(cost.budget)}; left ${describeCost(cost.remaining)}`}.</p>
${
  cost.byRound.length === 0
    ? html`<p class="muted">No stage reported a cost.</p>`
    : html`<table><thead><tr><th>round</th><th>stage</th><th>outcome</th><th>runner</th><th>cost</th></tr></thead><tbody>
${cost.byRound.flatMap((r) => r.stages.map((s) => html`<tr><td>${r.round}</td><td>${s.stage}</td><td>${s.outcome}</td><td>${s.runner}</td><td>${describeCost(s.cost)}</td></tr>`))}
</tbody></table>
<ul>${cost.byRunner.map((r) => html`<li>by ${r.runner}: ${describeCost(r.spent)}</li>`)}</ul>`
}
</section>`;

/** The whole page, as a string of HTML. */
export const htmlReport = (history: RunHistory, options: ReportOptions): string => {
  const { state } = history;
  const status = statusOf(state);
  const why = explain(state);
  const runId = status.runId ?? '?';
  const findings = findingsInOrder(state);
  const roundsWithFindings = [
    ...new Set([...findings.map((f) => f.openedRound), ...toArray(state.suppressed).map((s) => s.round)]),
  ].sort((a, b) => a - b);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="clearance ${options.toolVersion}">
<title>clearance: ${runId} is ${status.status}</title>
<style>${{ markup: REPORT_CSS }}</style>
</head>
<body>
<header>
<h1>Review <code>${runId}</code></h1>
<p>Verdict: <span id="verdict" class="verdict status-${status.status}" data-status="${status.status}">${status.status}</span></p>
<p id="why" class="panel">${why.headline}</p>
<p class="muted" id="round-count" data-rounds="${status.round}">Round ${status.round} of ${status.maxRounds ?? '?'} · policy ${status.policy ?? '?'} · ${status.counts.open} open (${status.counts.openBlocking} blocking), ${status.counts.fixed} fixed, ${status.counts.withdrawn} withdrawn, ${status.counts.suppressed} suppressed, ${status.counts.deferred} deferred${status.inputSha === null ? '' : html` · input <code>${short(status.inputSha)}</code>`}</p>
</header>
<main>
<section id="blocking"><h2>Blocking findings: ${why.blocking.length}</h2>
${why.blocking.length === 0 ? html`<p>No blocking finding is open.</p>` : html`<ul>${why.blocking.map((b) => html`<li data-finding="${b.id}"><strong>${b.severity}</strong> <code>${b.citation}</code> ${b.summary} <span class="muted">(open ${b.keptOpen.length} round(s), <a href="#finding-${b.id}">${short(b.id)}</a>)</span></li>`)}</ul>`}
${why.advisoryOpen > 0 ? html`<p>${why.advisoryOpen} advisory finding(s) open; they never block.</p>` : ''}
${
  why.rulings.length + why.extensions.length === 0
    ? ''
    : html`<h3>Decided by people</h3><ul>
${why.extensions.map((x) => html`<li>extended by ${x.rounds} round(s) by <strong>${x.by}</strong> after round ${x.round}: ${x.why}</li>`)}
${why.rulings.map((r) => html`<li><code>${short(r.findingId)}</code> ruled ${r.status} by <strong>${r.by}</strong> after round ${r.round}: ${r.why}</li>`)}</ul>`
}
</section>
${roundsSection(status)}
<section id="findings"><h2>Findings by round</h2>
${roundsWithFindings.length === 0 ? html`<p>No finding was admitted.</p>` : ''}
${roundsWithFindings.map(
  (round) => html`<section class="round" data-round="${round}"><h3>Opened in round ${round}</h3>
${findings.filter((f) => f.openedRound === round).map((f) => findingArticle(state, f, history))}
${
  toArray(state.suppressed).some((s) => s.round === round)
    ? html`<p>Confirmed but not admitted by the policy:</p><ul class="suppressed">${toArray(state.suppressed)
        .filter((s) => s.round === round)
        .map(suppressedItem)}</ul>`
    : ''
}
</section>`,
)}
</section>
${deferredSection(why.deferred)}
${costSection(costReport(state))}
<section id="timeline"><h2>Timeline: ${history.timeline.length} event(s)</h2>
<ol class="timeline">${history.timeline.map(timelineItem)}</ol>
</section>
</main>
<footer class="muted"><p>Written by clearance ${options.toolVersion} from the run's hash-chained log; <code>clearance replay ${runId}</code> shows the same events.</p></footer>
</body>
</html>
`;
  return page.markup;
};
