import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/index.js';
import { type PMap, values } from '../../src/projections/pmap.js';
import { type RunState, STATE_SHAPE_VERSION } from '../../src/projections/state.js';
import { toArray, type Vec } from '../../src/projections/vec.js';
import { parseHead, parseLog } from '../../src/store/index.js';
import { reachableRunArb } from '../../src/testing.js';
import { fold } from '../support/decider.js';

/**
 * `STATE_SHAPE_VERSION` says which shape of `RunState` a checkpoint holds; a checkpoint of
 * another shape is ignored and rebuilt. Bumping it is by hand, so this test holds it: the shape of
 * the states that every frozen log and a fixed sample of generated runs fold to is fingerprinted,
 * and the fingerprint is recorded per version. Change the shape (add, remove, rename or retype a
 * field, anywhere inside) and the fingerprint changes: the test then fails until the version is
 * bumped and the new fingerprint recorded beside it. A new version with an old fingerprint fails
 * too: a bump for nothing throws every checkpoint away.
 */
const FINGERPRINTS: Readonly<Record<number, string>> = {
  10: 'e99c1355f7c818ea95211f0c8b9d1964045b68abad9c268e73d21537bf003b43',
  11: 'a26d277aa753c0ca8550780a93ff98fcc2aa24f63e8a8e720dfa03b767457b59',
  12: '17a36bbe905f6bcc897790d1d433059cc8f8a9473faed246f89a93c516a51fb9',
  13: 'f267bf1d6925242f0bbb910cceddee2083f80370ca345687e29cafacb60dbbcd',
};

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;

/** Objects whose keys are data (severity names, stage names), not fields: their values are one shape. */
const RECORDS = new Set(['admitted', 'stages.failures', 'run.policy.severities', 'spent']);

const isVec = (v: object) =>
  ['root', 'shift', 'size', 'tail'].every((k) => k in v) && Object.keys(v).length === 4;
const isMap = (v: object) => ['root', 'size'].every((k) => k in v) && Object.keys(v).length === 2;

/** Every `path: kind` a value shows, persistent vectors and maps read as the lists they hold. */
const shapeOf = (value: unknown, at: string, into: Set<string>): void => {
  if (value === null || typeof value !== 'object') {
    into.add(`${at}: ${value === null ? 'null' : typeof value}`);
    return;
  }
  if (Array.isArray(value)) {
    into.add(`${at}: array`);
    for (const item of value) shapeOf(item, `${at}[]`, into);
    return;
  }
  if (isVec(value)) {
    into.add(`${at}: vec`);
    for (const item of toArray(value as Vec<unknown>)) shapeOf(item, `${at}[]`, into);
    return;
  }
  if (isMap(value)) {
    into.add(`${at}: map`);
    for (const item of values(value as PMap<unknown>)) shapeOf(item, `${at}{}`, into);
    return;
  }
  into.add(`${at}: object`);
  for (const [key, inner] of Object.entries(value)) {
    const record = RECORDS.has(at);
    shapeOf(inner, record ? `${at}{}` : at === '' ? key : `${at}.${key}`, into);
  }
};

const frozenStates = (): RunState[] =>
  readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.jsonl') && !file.startsWith('corpus'))
    .map((file) => {
      const log = path.join(FIXTURES, file);
      const head = readFileSync(log.replace(/\.jsonl$/, '.head'), 'utf8');
      return fold(parseLog(readFileSync(log), parseHead(head)).events).state;
    });

const fingerprint = (): Readonly<{ hash: string; paths: string[] }> => {
  const paths = new Set<string>();
  const generated = fc.sample(reachableRunArb, { seed: 20261201, numRuns: 300 }).map((r) => r.state);
  for (const state of [...frozenStates(), ...generated]) shapeOf(structuredClone(state), '', paths);
  const sorted = [...paths].sort();
  return { hash: sha256Hex(sorted.join('\n')), paths: sorted };
};

describe('the state-shape version', () => {
  it('is bumped whenever the shape of RunState changes, and only then', () => {
    const { hash, paths } = fingerprint();
    expect(paths.length).toBeGreaterThan(150);
    // the sample reaches the corners of the state: deferred candidates, checks, stalls, rulings, panels
    for (const needed of [
      'deferred[].reason',
      'checks.checks[].name',
      'stall.findings[].why',
      'rulings[].by',
      'panels[].absent[].expert',
    ])
      expect(
        paths.some((p) => p.startsWith(needed)),
        needed,
      ).toBe(true);
    const recorded = FINGERPRINTS[STATE_SHAPE_VERSION];
    expect(
      recorded,
      `STATE_SHAPE_VERSION ${STATE_SHAPE_VERSION} has no fingerprint here: record ${hash} for it in FINGERPRINTS`,
    ).toBeDefined();
    expect(
      hash,
      `the shape of RunState changed without STATE_SHAPE_VERSION (${STATE_SHAPE_VERSION}): bump it in src/projections/state.ts, say what changed in its comment, and record ${hash} for the new version here (if only the generators changed and the sample now reaches a field it missed, record the new hash under the same version)`,
    ).toBe(recorded);
    const reused = Object.entries(FINGERPRINTS).filter(
      ([v, h]) => h === hash && Number(v) !== STATE_SHAPE_VERSION,
    );
    expect(
      reused,
      'an older version had this very shape: the bump threw checkpoints away for nothing',
    ).toEqual([]);
  });
});
