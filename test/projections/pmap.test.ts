import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { property } from '../../property-tests/property.js';
import { sha256Hex } from '../../src/index.js';
import {
  emptyMap,
  entries,
  entriesWithPrefix,
  get,
  type PMap,
  remove,
  set,
} from '../../src/projections/pmap.js';
import { deepFreeze } from '../support/given.js';

/** Keys from a small pool of digests, so that sets, replacements and removals meet often. */
const keyArb = fc.nat({ max: 400 }).map((n) => sha256Hex(`key ${n}`));
const editsArb = fc.array(
  fc.oneof(fc.record({ set: keyArb, to: fc.integer() }), fc.record({ remove: keyArb })),
  { maxLength: 600 },
);

const built = (edits: ReadonlyArray<{ set: string; to: number } | { remove: string }>) => {
  let map: PMap<number> = emptyMap;
  const model = new Map<string, number>();
  for (const edit of edits) {
    if ('set' in edit) {
      map = set(map, edit.set, edit.to);
      model.set(edit.set, edit.to);
    } else {
      map = remove(map, edit.remove);
      model.delete(edit.remove);
    }
  }
  return { map, model };
};

describe('the persistent map behind the findings index', () => {
  property([editsArb])('holds what a Map holds, and its shape depends only on what it holds', (edits) => {
    const { map, model } = built(edits);
    expect(map.size).toBe(model.size);
    const sorted = [...model.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
    expect(entries(map).map((e) => [e.key, e.value])).toEqual(sorted);
    for (const [key, value] of model) expect(get(map, key)).toBe(value);
    // the same entries set afresh, in another order: the same plain data, deep-equal
    let fresh: PMap<number> = emptyMap;
    for (const [key, value] of [...model.entries()].reverse()) fresh = set(fresh, key, value);
    expect(fresh).toEqual(map);
    // and JSON reads it back unchanged (the checkpoint)
    expect(JSON.parse(JSON.stringify(map))).toEqual(map);
  });

  property([editsArb, keyArb, fc.integer()])(
    'a change never touches the map it came from',
    (edits, key, value) => {
      const { map } = built(edits);
      const frozen = deepFreeze(map);
      const copy = structuredClone(frozen);
      set(frozen, key, value);
      remove(frozen, key);
      expect(frozen).toEqual(copy);
    },
  );

  property([editsArb, fc.stringMatching(/^[0-9a-f]{1,6}$/)])(
    'finds the entries under a prefix by walking down it',
    (edits, prefix) => {
      const { map, model } = built(edits);
      const expected = [...model.keys()].filter((k) => k.startsWith(prefix)).sort();
      expect(entriesWithPrefix(map, prefix).map((e) => e.key)).toEqual(expected);
    },
  );

  it('answers any string asked, finding only the digests it holds', () => {
    const key = sha256Hex('held');
    const map = set(emptyMap, key, 1);
    for (const asked of [
      '',
      'held',
      key.toUpperCase(),
      `${key}0`,
      key.slice(0, 63),
      '__proto__',
      'g'.repeat(64),
    ])
      expect(get(map, asked)).toBeUndefined();
    expect(remove(map, 'g'.repeat(64))).toBe(map);
    expect(remove(map, sha256Hex('not held'))).toBe(map);
    expect(set(map, key, 1)).toBe(map);
    expect(() => set(map, 'short', 1)).toThrow(/64-hex/);
    expect(() => set(map, 'G'.repeat(64), 1)).toThrow(/64-hex/);
  });

  it('stays shallow for 20,000 digests: about log16 of them', () => {
    let map: PMap<number> = emptyMap;
    for (let i = 0; i < 20_000; i++) map = set(map, sha256Hex(String(i)), i);
    const depth = (node: unknown, d: number): number =>
      Array.isArray(node) ? Math.max(d, ...node.map((child) => depth(child, d + 1))) : d;
    expect(depth(map.root, 0)).toBeLessThanOrEqual(8);
    expect(get(map, sha256Hex('12345'))).toBe(12_345);
  });
});
