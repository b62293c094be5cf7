import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  explain,
  findingOf,
  findingsInOrder,
  findingView,
  type StoredEvent,
  statusOf,
} from '../../src/index.js';
import { renderExplanation } from '../../src/render/explain-text.js';
import { findingAnnotations } from '../../src/render/github.js';
import { htmlReport } from '../../src/render/html.js';
import { historyOf } from '../../src/render/run-history.js';
import { sarifLog } from '../../src/render/sarif.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { evolve, fold } from '../support/decider.js';

/**
 * The frozen v10 log (test/fixtures/v10) holds `revision.captured` v3 (captures from git that carry
 * where the open findings' lines went) and `contribution.recorded` v4 (a verifier's correction of
 * where a candidate is). Folded as it is, each finding stands where its code went, keeps where it
 * was cited, and says when its cited line is gone; every view reads it; the same log with a move
 * that does not start where the finding stood is refused there.
 */
const V10 = new URL('../fixtures/v10/', import.meta.url).pathname;
const RUN = 'v10-followed';
const FILE = 'src/pool.js';

const events = (): StoredEvent[] =>
  parseLog(readFileSync(`${V10}${RUN}.jsonl`), parseHead(readFileSync(`${V10}${RUN}.head`, 'utf8')))
    .events as StoredEvent[];

const [leak, bound] = findingsInOrder(fold(events()).state).map((f) => f.id) as [string, string];

describe('frozen v10 log: findings follow their code', () => {
  it('folds to converged at round 3, each finding where its code went and cited where its reviewer put it', () => {
    const { state, trail } = fold(events());
    expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
    expect(state).toMatchObject({ status: 'converged', round: 3 });
    expect(findingOf(state, leak)).toMatchObject({
      file: FILE,
      line: 40,
      cited: { file: FILE, line: 12 },
      correction: { by: 'verifier', evidence: 'pool line 30 is where the connection is checked out' },
    });
    expect(findingOf(state, leak)?.outdated).toBeUndefined();
    expect(findingOf(state, bound)).toMatchObject({
      file: FILE,
      line: 30,
      cited: { file: FILE, line: 20 },
      outdated: true,
    });
  });

  it('round by round: opened at the verifier’s line 30, moved ten down by the imports, the rewritten bound outdated', () => {
    const history = historyOf(evolve, events());
    const at = (round: number, id: string) => findingOf(history.rounds[round] ?? history.state, id);
    expect([at(1, leak)?.line, at(2, leak)?.line, at(3, leak)?.line]).toEqual([30, 40, 40]);
    expect([at(1, bound)?.line, at(2, bound)?.line, at(2, bound)?.outdated]).toEqual([20, 30, true]);
  });

  it('replays in every view: status, findings, explain, annotations, SARIF of each round, the HTML report', () => {
    const history = historyOf(evolve, events());
    const { state } = history;
    const views = findingsInOrder(state).map((f) => findingView(f, state));
    expect(views.map((v) => [v.citation, v.cited, v.outdated ?? false])).toEqual([
      [`${FILE}:40`, { file: FILE, line: 12 }, false],
      [`${FILE}:30`, { file: FILE, line: 20 }, true],
    ]);
    expect(statusOf(state).findings).toEqual(views);
    expect(renderExplanation(explain(state))).toMatch(/^converged at round 3/);
    const policy = state.run?.policy;
    if (policy === undefined) throw new Error('the run is opened');
    // fixed findings say nothing as annotations: the open ones after round 2 do, most important first
    const round2 = history.rounds[2] ?? state;
    expect(
      findingAnnotations(
        policy,
        findingsInOrder(round2).map((f) => findingView(f, round2)),
      ).map((a) => [a.line, a.detail]),
    ).toEqual([
      [30, expect.stringMatching(/cited at src\/pool\.js:20; outdated/)],
      [40, expect.stringMatching(/placed by verifier; cited at src\/pool\.js:12$/)],
    ]);
    for (const round of [1, 2, 3]) {
      const sarif = JSON.stringify(sarifLog(history, { round, toolVersion: 'test' }));
      expect(sarif).toContain(`"startLine":${round === 1 ? 30 : 40}`);
    }
    const page = htmlReport(history, { toolVersion: 'test' });
    expect(page).toContain('src/pool.js:40');
    expect(page).toContain('cited at src/pool.js:12');
  });

  it('the same log with a move that does not start where its finding stood is refused at that capture', () => {
    const forged = events().map((e) =>
      e.type === 'revision.captured' && e.data.moves !== undefined && e.data.round === 2
        ? { ...e, data: { ...e.data, moves: e.data.moves.map((m) => ({ ...m, from: m.from + 1 })) } }
        : e,
    );
    const refused = fold(forged).trail.filter((t) => t.rejection !== null);
    expect(refused[0]?.rejection?.code).toBe('invalid-move');
    expect(refused[0]?.type).toBe('revision.captured');
  });
});
