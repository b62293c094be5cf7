import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  EventLineSchema,
  type EventType,
  explain,
  feedbackMarkdown,
  findingOf,
  latestVersion,
  renderExplanation,
  statusOf,
  toArray,
} from '../../src/index.js';
import { htmlReport } from '../../src/render/html.js';
import { historyOf } from '../../src/render/run-history.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { evolve, fold, notedTrail } from '../support/decider.js';

/**
 * The frozen v11 log (test/fixtures/v11) folds to the disputes, their rulings, the stall they made
 * and the candidate refuted before that it was written with. Its `*.verdict.json` shows none of
 * them, so this asserts them, and renders the log in every view.
 */
const V11 = new URL('../fixtures/v11/', import.meta.url).pathname;
const RUN = 'v11-disputes';
const MAJOR = '28684cb74dce7b4535273c31f020f8bddcf3a560c4a3e69a2e649d34d222ebd4';
const REASON = 'the pool closes the handle on abort (pool.js:88)';

const read = () =>
  parseLog(readFileSync(`${V11}${RUN}.jsonl`), parseHead(readFileSync(`${V11}${RUN}.head`, 'utf8')));

describe('frozen v11 log: disputes and a candidate refuted before', () => {
  it('keeps both disputes with their rulings, and the person’s ruling that closed it', () => {
    const { events } = read();
    const { state, trail } = fold(events);
    expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
    expect(findingOf(state, MAJOR)?.disputes).toEqual([
      {
        round: 2,
        reason: REASON,
        ruling: { round: 2, status: 'open', evidence: 'pool.js:88 runs on the success path only' },
      },
      {
        round: 3,
        reason: 'an abort goes through pool.release as well',
        ruling: { round: 3, status: 'open', evidence: 'release returns early before close()' },
      },
    ]);
    expect([state.status, state.disputed, state.convergedBy?.by]).toEqual(['converged', [], 'Ada Lovelace']);
    // the refused lines are not in the log: the second reason, the silent report, the final run's dispute
    expect(events.map((e) => e.type)).toEqual([
      'run.opened',
      'revision.captured',
      'contribution.recorded',
      'contribution.recorded',
      'round.recorded',
      'finding.disputed',
      'revision.captured',
      'round.recorded',
      'finding.disputed',
      'revision.captured',
      'round.recorded',
      'finding.ruled',
    ]);
  });

  it('round 3 blocked the run before its cap of 5, reason disputed', () => {
    const { events } = read();
    const blocked = fold(events.slice(0, -1)).state;
    expect(blocked.status).toBe('blocked');
    expect(blocked.stall).toEqual({ round: 3, findings: [{ id: MAJOR, why: 'disputed' }] });
    expect(statusOf(blocked)).toMatchObject({ blockedReason: 'disputed', maxRounds: 5, round: 3 });
    const text = renderExplanation(explain(blocked));
    expect(text).toContain(
      `blocked early at round 3 of 5: disputed, finding ${MAJOR.slice(0, 12)} upheld after 2 disputes`,
    );
    expect(text).toContain(
      `disputed for round 2: ${REASON}; upheld in round 2: pool.js:88 runs on the success path only`,
    );
    expect(feedbackMarkdown(blocked, 'the log')).toContain(
      'The review is blocked early at round 3 of 5: reviewers and author disagree',
    );
  });

  it('the refuted cache finding offered again in round 2 is refuted before, naming round 1', () => {
    const { state } = fold(read().events);
    expect(toArray(state.refuted).map((r) => [r.round, r.by, r.before ?? null])).toEqual([
      [1, ['verifier'], null],
      [2, ['fixture-reviewer'], { round: 1, how: 'refuted' }],
    ]);
    expect(toArray(state.refuted)[1]?.evidence).toBe('the TTL sweep in cache.js:40 evicts them every minute');
    expect(explain(state).refuted).toHaveLength(2);
  });

  it('replays in every view: the trail notes, the feedback between rounds, the HTML page', () => {
    const { events } = read();
    const trail = notedTrail(events);
    expect(trail.filter((t) => t.type === 'finding.disputed').map((t) => t.note)).toEqual([
      `dispute of ${MAJOR.slice(0, 12)} for round 2: ${REASON}`,
      `dispute of ${MAJOR.slice(0, 12)} for round 3: an abort goes through pool.release as well`,
    ]);
    expect(
      trail.flatMap((t) => t.disputesRuled.map((d) => [t.seq, d.ruling.status, d.ruling.by ?? null])),
    ).toEqual([
      [8, 'open', null],
      [11, 'open', null],
    ]);
    expect(trail.flatMap((t) => t.refuted.map((r) => [t.seq, r.before?.round ?? null]))).toEqual([
      [5, null],
      [8, 1],
    ]);
    const between = fold(events.slice(0, 6)).state;
    const brief = feedbackMarkdown(between, 'the log');
    expect(brief).toContain('### Disputed: round 2 must rule on each');
    expect(brief).toContain(`  - The author's reason: ${REASON}`);
    const page = htmlReport(historyOf(evolve, events), { toolVersion: '0.0.0-test' });
    expect(page).toContain(`<dd class="dispute">for round 2: <span class="reason">${REASON}</span>`);
    expect(page).toContain('refuted before: major');
  });

  it('every line at the latest version of its type is what clearance schema event describes', () => {
    const lines = readFileSync(`${V11}${RUN}.jsonl`, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((line) => JSON.parse(line) as { type: EventType; v: number });
    const latest = lines.filter((e) => e.v === latestVersion(e.type));
    expect(latest.map((e) => e.type)).toContain('finding.disputed');
    const invalid = latest.flatMap((line, i) => {
      const parsed = EventLineSchema.safeParse(line);
      return parsed.success ? [] : [`line ${i + 1}: ${parsed.error.message}`];
    });
    expect(invalid).toEqual([]);
  });
});
