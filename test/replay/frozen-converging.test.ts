import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportSha, type StoredEvent, toArray } from '../../src/index.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { fold } from '../support/decider.js';

/**
 * The frozen v9 log (test/fixtures/v9) holds a round on unchanged input recorded with its reason,
 * candidates deferred past their severity's round and outside the fix, and a reopening with new
 * evidence. Folded as it is, the same-input round counts, every deferred candidate is kept with
 * its reviewer and evidence, and each round's tally is what it did; the same log with the same-input
 * reason stripped, or with the reopening's evidence made the fix's, is refused where it changed.
 */
const V9 = new URL('../fixtures/v9/', import.meta.url).pathname;
const RUN = 'v9-converging';

const events = (): StoredEvent[] =>
  parseLog(readFileSync(`${V9}${RUN}.jsonl`), parseHead(readFileSync(`${V9}${RUN}.head`, 'utf8')))
    .events as StoredEvent[];

const refusedIn = (evs: ReadonlyArray<StoredEvent>) =>
  fold(evs)
    .trail.filter((t) => t.rejection !== null)
    .map((t) => `${t.seq} ${t.rejection?.code}`);

describe('frozen v9 log: a loop held to converge', () => {
  it('folds to converged at round 5, with one same-input round and three candidates deferred', () => {
    const { state, trail } = fold(events());
    expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
    expect(state).toMatchObject({ status: 'converged', round: 5, sameInputRounds: 1 });
    expect(toArray(state.deferred).map((d) => [d.round, d.severity, d.file, d.reason, d.reviewers])).toEqual([
      [2, 'minor', 'src/api.js', 'outside-fix', ['fixture-reviewer']],
      [2, 'nit', 'src/api.js', 'until-round', ['fixture-reviewer']],
      [3, 'minor', 'src/service.js', 'until-round', ['fixture-reviewer']],
      [3, 'major', 'src/elsewhere.js', 'outside-fix', ['fixture-reviewer']],
    ]);
    expect(toArray(state.deferred).every((d) => d.evidence.length > 0)).toBe(true);
    expect(
      toArray(state.outcomes).map((o) => [o.tally.opened, o.tally.deferred, o.tally.blockingOpen]),
    ).toEqual([
      [4, 0, 2],
      [0, 2, 2],
      [0, 2, 1],
      [0, 0, 2],
      [0, 0, 0],
    ]);
  });

  it('without its reason, the same-input capture is unchanged-input; the reopening with the fix evidence is stale', () => {
    const all = events();
    const stripped = all.map((e) => {
      if (e.type !== 'revision.captured' || e.data.sameInput === undefined) return e;
      const { sameInput: _, ...data } = e.data;
      return { ...e, data };
    });
    expect(refusedIn(stripped)[0]).toBe('4 unchanged-input');
    const fix = all.find((e) => e.type === 'round.recorded' && e.data.round === 3);
    const evidence = fix?.type === 'round.recorded' ? fix.data.report.decisions[0]?.evidence : undefined;
    expect(evidence).toBeDefined();
    // the report rewritten with the fix's evidence, its hash made to match: only the rule can refuse it
    const stale = all.map((e) => {
      if (e.type !== 'round.recorded' || e.data.round !== 4) return e;
      const report = {
        ...e.data.report,
        decisions: e.data.report.decisions.map((d) => ({ ...d, evidence: `${evidence}\n` })),
      };
      return { ...e, data: { ...e.data, report, reportSha: reportSha(report) } };
    });
    expect(refusedIn(stale)[0]).toBe('9 stale-evidence');
  });
});
