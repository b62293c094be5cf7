import type { DeferredView } from '../projections/views/deferred.js';
import type { StatusView } from '../projections/views/status.js';
import { htmlText } from '../text/untrusted.js';
import { blockingChart, flowChart } from './html-chart.js';
import { html, type Markup } from './html-template.js';
import { outcomeReason } from './outcome-reason.js';
import {
  deferredCause,
  ROUND_COLUMNS,
  ROUND_COLUMNS_LEGEND,
  sameInputSentence,
  trendSentence,
} from './trend-text.js';

/**
 * The rounds of `report --html`: the charts of the trend, the advisory trend in words, the
 * same-input count and the per-round table (how each round ended, what it did, what it spent), which
 * is also the charts' text alternative; then the candidates deferred to a follow-up.
 */

const short = (id: string) => id.slice(0, 12);

const roundsTable = (status: StatusView): Markup =>
  html`<table id="round-table"><thead><tr>${ROUND_COLUMNS.map((c) => html`<th scope="col">${c.heading}</th>`)}<th scope="col">reason</th></tr></thead><tbody>
${status.rounds.map(
  (r) =>
    html`<tr data-round="${r.round}">${ROUND_COLUMNS.map((c) => html`<td${c.numeric ? html` class="number"` : ''}>${c.cell(r)}</td>`)}<td>${outcomeReason(r) ?? ''}</td></tr>`,
)}</tbody></table>
<p class="muted">${ROUND_COLUMNS_LEGEND}.</p>`;

export const roundsSection = (status: StatusView): Markup => {
  const trend = trendSentence(status.trend, status.rounds);
  const sameInput = sameInputSentence(status.sameInput);
  return html`<section id="rounds"><h2>Rounds: ${status.round} of ${status.maxRounds ?? '?'}</h2>
${
  status.rounds.length === 0
    ? html`<p>No round has ended.</p>`
    : html`<figure id="trend-charts" class="charts">${blockingChart(status.rounds)}${flowChart(status.rounds)}<figcaption class="muted">The same numbers are in the table below.</figcaption></figure>
${trend === null ? '' : html`<p id="trend" class="panel" data-trend="${status.trend ?? ''}">${trend}</p>`}
${sameInput === null ? '' : html`<p id="same-input">${sameInput}</p>`}
${roundsTable(status)}`
}
</section>`;
};

const deferredItem = (d: DeferredView): Markup =>
  html`<li data-candidate="${d.id}"><span class="tag">${d.severity}</span><span class="tag">${d.category}</span> <code class="citation">${d.citation}</code> <strong class="summary">${d.summary}</strong>
<dl>
<dt>why</dt><dd>${{ markup: deferredCause(d, htmlText) }}</dd>
<dt>proposed by</dt><dd>${d.reviewers.length === 0 ? 'an anonymous report' : d.reviewers.join(', ')}</dd>
<dt>evidence</dt><dd class="evidence">${d.evidence}</dd>
<dt>candidate id</dt><dd class="id">${short(d.id)}</dd>
</dl></li>`;

/** The candidates deferred to a follow-up: kept whole, never findings, never blocking. */
export const deferredSection = (deferred: ReadonlyArray<DeferredView>): Markup =>
  html`<section id="deferred"><h2>Deferred to a follow-up: ${deferred.length}</h2>
${
  deferred.length === 0
    ? html`<p>No candidate was deferred.</p>`
    : html`<p>Kept on the record for a follow-up: never findings, never blocking, not this loop's to fix.</p><ul class="deferred">${deferred.map(deferredItem)}</ul>`
}
</section>`;
