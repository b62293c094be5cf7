import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fold } from '../../src/index.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { verdictOf } from './verdict.js';

/**
 * Temporal-style replay: logs written by earlier versions of clearance, frozen under
 * test/fixtures/<version>/, must fold today to the verdict they folded to then, byte for byte.
 * A failure here is a schema change: add an upcaster, never edit a fixture.
 */
const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

const frozen = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((version) =>
    readdirSync(`${FIXTURES}${version.name}`)
      .filter((f) => f.endsWith('.jsonl'))
      .map((f) => ({
        version: version.name,
        run: f.slice(0, -'.jsonl'.length),
        dir: `${FIXTURES}${version.name}/`,
      })),
  );

describe('frozen logs fold to the verdict they were written with', () => {
  it('there are frozen logs to replay', () => {
    expect(frozen.map((f) => `${f.version}/${f.run}`)).toEqual(
      expect.arrayContaining(['v1/v1-converges', 'v1/v1-blocked', 'v1/v1-issueflow', 'v1/v1-cited']),
    );
  });

  for (const { version, run, dir } of frozen) {
    it(`${version}/${run}`, () => {
      const bytes = readFileSync(`${dir}${run}.jsonl`);
      const parsed = parseLog(bytes, parseHead(readFileSync(`${dir}${run}.head`, 'utf8')));
      expect(parsed.issue).toBeNull();
      expect(parsed.tornTail).toBeNull();
      const { state, trail } = fold(parsed.events);
      expect(trail.filter((t) => t.rejection !== null)).toEqual([]);
      expect(verdictOf(state)).toBe(readFileSync(`${dir}${run}.verdict.json`, 'utf8'));
    });
  }
});
