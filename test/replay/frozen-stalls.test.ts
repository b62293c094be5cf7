import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { explain, findingOf, historyOf, type RunState, statusOf, toArray } from '../../src/index.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { fold } from '../support/decider.js';

/**
 * The frozen v5 logs (test/fixtures/v5) fold to the stall and the reopenings they were written
 * with. Their `*.verdict.json` predate neither, so this asserts what those files cannot show.
 */
const V5 = new URL('../fixtures/v5/', import.meta.url).pathname;

const folded = (run: string): RunState => {
  const parsed = parseLog(
    readFileSync(`${V5}${run}.jsonl`),
    parseHead(readFileSync(`${V5}${run}.head`, 'utf8')),
  );
  const { state, trail } = fold(parsed.events);
  expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
  return state;
};

const LEAK = '0dd14b7f58e02bdcb679e871d2cfb2b8184a9a7487533ae65be130cd07512b2c';

describe('frozen v5 logs: reopening and stalls', () => {
  it('v5-reopened-twice: fixed, reopened, fixed, reopened stalls the run at round 5 of 6', () => {
    const state = folded('v5-reopened-twice');
    expect(state.status).toBe('blocked');
    expect(state.stall).toEqual({ round: 5, findings: [{ id: LEAK, why: 'reopened-twice' }] });
    const leak = findingOf(state, LEAK);
    if (leak === undefined) throw new Error('no leak finding');
    expect(historyOf(state, leak).map((s) => `${s.round} ${s.how} ${s.status}`)).toEqual([
      '1 opened open',
      '2 decided fixed',
      '3 reopened open',
      '4 decided fixed',
      '5 reopened open',
    ]);
    expect(toArray(leak.steps)[2]?.evidence).toMatch(/pool change bypasses the finally block/);
    expect(statusOf(state)).toMatchObject({ blockedReason: 'stalled', maxRounds: 6 });
    expect(explain(state).headline).toMatch(
      /^blocked early at round 5 of 6: stalled, finding 0dd14b7f58e0 reopened a second time/,
    );
  });

  it('v5-stalled-open: stalled at round 3, extended, stalled again at round 5, converged by a ruling', () => {
    const state = folded('v5-stalled-open');
    expect(state.status).toBe('converged');
    expect(state.convergedBy?.by).toBe('Ada Lovelace');
    expect(toArray(state.extensions).map((x) => x.round)).toEqual([3]);
    expect(state.stall).toEqual({ round: 5, findings: [{ id: LEAK, why: 'kept-open' }] });
    expect(statusOf(state).blockedReason).toBeNull();
  });
});
