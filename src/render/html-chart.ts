import type { RoundRow } from '../projections/views/trend.js';
import { html, type Markup } from './html-template.js';

/**
 * The trend of `report --html` drawn as two inline SVG charts: the blocking findings open after
 * each round (a line with a marked point per round), and new against fixed findings per round
 * (paired bars). No script and nothing loaded, so the page's `default-src 'none'` holds. Readable in
 * print and without colour: every point and bar has its number written beside it, new bars are
 * solid and fixed bars hatched with an outline, a legend names both, and each chart carries a
 * `<title>` and a `<desc>` with every value; the rounds table under it holds the same numbers.
 */

const WIDTH = 500;
const HEIGHT = 230;
const LEFT = 40;
const RIGHT = 12;
const TOP = 42;
const BOTTOM = 36;
const PLOT_W = WIDTH - LEFT - RIGHT;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** Past these many rounds the labels would overlap: numbers and round labels thin out. */
const LABELLED_ROUNDS = 24;
const MARKED_ROUNDS = 80;

const at = (v: number): string => String(Math.round(v * 10) / 10);

/** The x of round i's middle (0-based), in a plot of n rounds. */
const middle = (i: number, n: number): number => LEFT + (i + 0.5) * (PLOT_W / n);

/** The y of value v on a scale up to top (at least 1, so an all-zero chart still has a scale). */
const heightOf = (v: number, top: number): number => (v / Math.max(1, top)) * PLOT_H;

const BASELINE = TOP + PLOT_H;

/** Every k-th round is labelled, so at most LABELLED_ROUNDS labels show. */
const labelled = (i: number, n: number): boolean =>
  n <= LABELLED_ROUNDS || i % Math.ceil(n / LABELLED_ROUNDS) === 0 || i === n - 1;

/** The axes both charts share: the baseline, the scale's top and zero, and the round numbers. */
const axes = (rows: ReadonlyArray<RoundRow>, top: number): Markup => {
  const n = rows.length;
  return html`<g class="axis"><line x1="${LEFT}" y1="${BASELINE}" x2="${WIDTH - RIGHT}" y2="${BASELINE}"/><line x1="${LEFT}" y1="${TOP}" x2="${LEFT}" y2="${BASELINE}"/>
<text x="${LEFT - 6}" y="${BASELINE}" text-anchor="end" dominant-baseline="middle">0</text><text x="${LEFT - 6}" y="${TOP}" text-anchor="end" dominant-baseline="middle">${Math.max(1, top)}</text>
${rows.map((r, i) => (labelled(i, n) ? html`<text x="${at(middle(i, n))}" y="${BASELINE + 16}" text-anchor="middle">${r.round}</text>` : ''))}
<text x="${at(LEFT + PLOT_W / 2)}" y="${HEIGHT - 4}" text-anchor="middle">round</text></g>`;
};

/** A chart's opening: its title and description for a screen reader, and its title shown on it. */
const svgOpen = (id: string, title: string, desc: string): Markup =>
  html`<svg id="${id}" class="chart" role="img" aria-labelledby="${id}-title ${id}-desc" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="${WIDTH}" height="${HEIGHT}"><title id="${id}-title">${title}</title><desc id="${id}-desc">${desc}</desc>
<text class="heading" x="8" y="16" aria-hidden="true">${title}</text>`;

/** Blocking findings open after each round: the line the advisory trend is read from. */
export const blockingChart = (rows: ReadonlyArray<RoundRow>): Markup => {
  const n = rows.length;
  const top = Math.max(...rows.map((r) => r.tally.blockingOpen));
  const points = rows.map((r, i) => ({
    round: r.round,
    value: r.tally.blockingOpen,
    x: middle(i, n),
    y: BASELINE - heightOf(r.tally.blockingOpen, top),
  }));
  const desc = points.map((p) => `after round ${p.round}: ${p.value}`).join('; ');
  return html`${svgOpen('chart-blocking', 'Blocking findings open after each round', `Blocking findings open, ${desc}.`)}
${axes(rows, top)}
<polyline class="line" fill="none" points="${points.map((p) => `${at(p.x)},${at(p.y)}`).join(' ')}"/>
${
  n > MARKED_ROUNDS
    ? ''
    : points.map(
        (p, i) =>
          html`<g class="point" data-round="${p.round}" data-value="${p.value}"><circle cx="${at(p.x)}" cy="${at(p.y)}" r="4.5"><title>after round ${p.round}: ${p.value} blocking open</title></circle>${labelled(i, n) ? html`<text x="${at(p.x)}" y="${at(p.y - 9)}" text-anchor="middle">${p.value}</text>` : ''}</g>`,
      )
}
</svg>`;
};

/** One bar of the paired chart: its box, its number above it, and a tooltip saying what it counts. */
const bar = (
  kind: 'new' | 'fixed',
  r: RoundRow,
  value: number,
  x: number,
  width: number,
  top: number,
  label: boolean,
): Markup => {
  const h = heightOf(value, top);
  return html`<g class="bar ${kind}" data-round="${r.round}" data-value="${value}"><rect x="${at(x)}" y="${at(BASELINE - h)}" width="${at(width)}" height="${at(h)}"><title>round ${r.round}: ${value} ${kind}</title></rect>${label ? html`<text x="${at(x + width / 2)}" y="${at(BASELINE - h - 4)}" text-anchor="middle">${value}</text>` : ''}</g>`;
};

/** New against fixed findings per round: paired bars, solid for new, hatched for fixed. */
export const flowChart = (rows: ReadonlyArray<RoundRow>): Markup => {
  const n = rows.length;
  const top = Math.max(...rows.flatMap((r) => [r.tally.opened, r.tally.fixed]));
  const group = PLOT_W / n;
  const width = Math.max(0.5, Math.min(28, group * 0.36));
  const desc = rows.map((r) => `round ${r.round}: ${r.tally.opened} new, ${r.tally.fixed} fixed`).join('; ');
  return html`${svgOpen('chart-flow', 'New and fixed per round', `Findings opened and fixed, ${desc}.`)}
<defs><pattern id="hatch-fixed" patternUnits="userSpaceOnUse" width="6" height="6"><path class="hatch" d="M-1,1 l2,-2 M0,6 l6,-6 M5,7 l2,-2"/></pattern></defs>
${axes(rows, top)}
${rows.map((r, i) => {
  const x = middle(i, n);
  const label = n <= LABELLED_ROUNDS;
  return html`${bar('new', r, r.tally.opened, x - width - 1, width, top, label)}${bar('fixed', r, r.tally.fixed, x + 1, width, top, label)}`;
})}
<g class="legend"><rect class="swatch new" x="${WIDTH - RIGHT - 150}" y="6" width="12" height="12"/><text x="${WIDTH - RIGHT - 133}" y="16">new</text><rect class="swatch fixed" x="${WIDTH - RIGHT - 80}" y="6" width="12" height="12"/><text x="${WIDTH - RIGHT - 63}" y="16">fixed</text></g>
</svg>`;
};
