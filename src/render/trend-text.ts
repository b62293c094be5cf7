import type { Deferred } from '../projections/state.js';
import type { RoundRow, SameInput, Trend } from '../projections/views/trend.js';
import { plainText } from '../text/untrusted.js';
import { describeCost } from './cost-text.js';

/**
 * The trend in clearance's words, for every sink that shows it (`status`, `explain`, `feedback`,
 * the step summary, the HTML page): the per-round table's columns, the advisory trend's sentence,
 * the same-input count and why a candidate was deferred. Only the severity in `deferredCause` is a
 * reviewer's; it goes through the sink's encoder (`value`), the rest are numbers and clearance's.
 */

/** One column of the per-round table: its heading and its cell for a round. */
export type RoundColumn = Readonly<{ heading: string; cell: (r: RoundRow) => string; numeric: boolean }>;

const count = (heading: string, of: (r: RoundRow) => number | null): RoundColumn => ({
  heading,
  cell: (r) => String(of(r) ?? '-'),
  numeric: true,
});

export const ROUND_COLUMNS: ReadonlyArray<RoundColumn> = [
  count('round', (r) => r.round),
  { heading: 'result', cell: (r) => r.result, numeric: false },
  count('new', (r) => r.tally.opened),
  count('fixed', (r) => r.tally.fixed),
  count('withdrawn', (r) => r.tally.withdrawn),
  count('reopened', (r) => r.tally.reopened),
  count('deferred', (r) => r.tally.deferred),
  count('open', (r) => r.tally.stillOpen),
  count('blocking', (r) => r.tally.blockingOpen),
  count('files', (r) => r.tally.filesChanged),
  {
    heading: 'spent',
    cell: (r) => (Object.keys(r.spent).length === 0 ? '-' : describeCost(r.spent)),
    numeric: false,
  },
];

/** What the columns that need it mean, under the table. */
export const ROUND_COLUMNS_LEGEND =
  'open, blocking: findings open after the round; files: changed since the input reviewed before it';

/** The per-round table as aligned lines of text (numbers right-aligned), `indent` before each. */
export const roundTableLines = (rows: ReadonlyArray<RoundRow>, indent = '  '): string[] => {
  const cells = rows.map((r) => ROUND_COLUMNS.map((c) => c.cell(r)));
  const widths = ROUND_COLUMNS.map((c, i) =>
    Math.max(c.heading.length, ...cells.map((row) => row[i]?.length ?? 0)),
  );
  const line = (values: ReadonlyArray<string>) =>
    `${indent}${values
      .map((v, i) => {
        const width = widths[i] ?? 0;
        // the last column is left as it is: no trailing blanks
        if (i === values.length - 1) return v;
        return ROUND_COLUMNS[i]?.numeric === true ? v.padStart(width) : v.padEnd(width);
      })
      .join('  ')}`;
  return [
    line(ROUND_COLUMNS.map((c) => c.heading)),
    ...cells.map(line),
    `${indent}(${ROUND_COLUMNS_LEGEND})`,
  ];
};

/** The blocking counts the trend is read from: none before round 1, then after each round. */
const blockingPoints = (rows: ReadonlyArray<RoundRow>): string => {
  const points = [
    { after: 0, blocking: 0 },
    ...rows.map((r) => ({ after: r.round, blocking: r.tally.blockingOpen })),
  ].slice(-3);
  return points
    .map((p) => (p.after === 0 ? `${p.blocking} before round 1` : `${p.blocking} after round ${p.after}`))
    .join(', ');
};

/** What each trend says of the blocking counts (the definition is `trendOf`'s and docs/loop.md's). */
const trendMeaning = (trend: Trend, rows: ReadonlyArray<RoundRow>): string => {
  const last = rows[rows.length - 1];
  switch (trend) {
    case 'converging':
      return last?.tally.blockingOpen === 0
        ? `no blocking finding is open after round ${last.round}`
        : 'the blocking findings open fell in each of the last two rounds';
    case 'diverging':
      return 'the blocking findings open rose in each of the last two rounds';
    case 'flat':
      return 'the blocking findings open neither fell twice nor rose twice over the last two rounds';
    default:
      return 'only one round has ended, and blocking findings are open';
  }
};

/**
 * The advisory trend as one sentence, or null before any round ended: what it is, what it was read
 * from, and that it never changes the verdict.
 */
export const trendSentence = (trend: Trend | null, rows: ReadonlyArray<RoundRow>): string | null =>
  trend === null
    ? null
    : `trend: ${trend} (advisory, never the verdict): ${trendMeaning(trend, rows)} (blocking open: ${blockingPoints(rows)})`;

/** The same-input rounds, when the policy allows any or the run holds any; otherwise null. */
export const sameInputSentence = (s: SameInput, value: (s: string) => string = plainText): string | null =>
  s.allowed === 0 && s.rounds === 0
    ? null
    : `rounds on unchanged input: ${s.rounds} of ${s.allowed} allowed${s.each.map((r) => `; round ${r.round}, because ${value(r.reason)}`).join('')}`;

/**
 * Why a candidate was deferred to a follow-up. With the view's `untilRound` it names the bar the
 * candidate came in over; a trail entry, which has only the candidate, says the round it came in.
 */
export const deferredCause = (
  d: Deferred & Readonly<{ untilRound?: number | null }>,
  value: (s: string) => string = plainText,
): string => {
  if (d.reason === 'outside-fix') return `new in round ${d.round}, in a file the last fix did not touch`;
  return d.untilRound === undefined || d.untilRound === null
    ? `${value(d.severity)} is no longer admitted in round ${d.round}`
    : `${value(d.severity)} is admitted until round ${d.untilRound}; this came in round ${d.round}`;
};
