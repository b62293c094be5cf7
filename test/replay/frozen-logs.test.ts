import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, latestVersion, toArray } from '../../src/index.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { fold } from '../support/decider.js';
import { lifecycleOf, verdictOf } from './verdict.js';

/**
 * Temporal-style replay: logs written by earlier versions of clearance, frozen under
 * test/fixtures/<version>/, must fold today to the verdict they folded to then, byte for byte.
 * A failure here is a schema change: add an upcaster, never edit a fixture.
 */
const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** Folders frozen before stages, budgets, round results and rulings existed: no lifecycle verdict. */
const BEFORE_LIFECYCLE = new Set(['v1']);

const frozen = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory() && /^v[0-9]+$/.test(d.name))
  .flatMap((version) =>
    readdirSync(`${FIXTURES}${version.name}`)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({
        version: version.name,
        run: f.slice(0, -'.jsonl'.length),
        dir: `${FIXTURES}${version.name}/`,
      })),
  );

const read = (dir: string, run: string) =>
  parseLog(readFileSync(`${dir}${run}.jsonl`), parseHead(readFileSync(`${dir}${run}.head`, 'utf8')));

describe('frozen logs fold to the verdict they were written with', () => {
  it('there are frozen logs to replay', () => {
    expect(frozen.map((f) => `${f.version}/${f.run}`)).toEqual(
      expect.arrayContaining([
        'v1/v1-converges',
        'v1/v1-blocked',
        'v1/v1-issueflow',
        'v1/v1-cited',
        'v2/v2-staged-converges',
        'v2/v2-budget-partial',
        'v2/v2-ended-ruled',
        'v2/v2-mid-round',
        'v3/v3-contributions',
        'v5/v5-reopened-twice',
        'v5/v5-stalled-open',
        'v6/v6-reproductions',
      ]),
    );
  });

  for (const { version, run, dir } of frozen) {
    it(`${version}/${run}`, () => {
      const parsed = read(dir, run);
      expect(parsed.issue).toBeNull();
      expect(parsed.tornTail).toBeNull();
      const { state, trail } = fold(parsed.events);
      expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
      expect(verdictOf(state)).toBe(readFileSync(`${dir}${run}.verdict.json`, 'utf8'));
      if (!BEFORE_LIFECYCLE.has(version)) {
        expect(lifecycleOf(state)).toBe(readFileSync(`${dir}${run}.lifecycle.json`, 'utf8'));
      }
    });
  }
});

describe('v6: the re-run reproductions a frozen log holds', () => {
  it('v6/v6-reproductions folds to the outcomes it recorded, one per finding and input', () => {
    const { state } = fold(read(`${FIXTURES}v6/`, 'v6-reproductions').events);
    expect(
      toArray(state.reruns).map((r) => [r.round, r.inputSha.slice(0, 2), r.outcome, r.outputSha !== null]),
    ).toEqual([
      [2, 'r2', 'still-fails', true],
      [2, 'r2', 'no-longer-fails', false],
      [3, 'r3', 'no-longer-fails', false],
      [3, 'r3', 'no-longer-fails', false],
    ]);
  });
});

describe('every event at its latest version is frozen', () => {
  // A new event type or version must bring a frozen log that holds it (scripts/freeze-fixtures.mjs).
  const written = new Set(
    frozen.flatMap(({ dir, run }) =>
      readFileSync(`${dir}${run}.jsonl`, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const { type, v } = JSON.parse(line) as { type: string; v: number };
          return `${type} v${v}`;
        }),
    ),
  );

  for (const type of EVENT_TYPES) {
    it(`${type} v${latestVersion(type)}`, () => {
      expect(
        written.has(`${type} v${latestVersion(type)}`),
        `no frozen log holds ${type} v${latestVersion(type)}`,
      ).toBe(true);
    });
  }

  it('the registry is enumerated, not an empty list', () => {
    expect(EVENT_TYPES.length).toBeGreaterThanOrEqual(10);
  });
});
