import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { property } from '../../property-tests/property.js';
import { at, emptyVec, itemsFrom, last, push, toArray, type Vec, vecOf } from '../../src/index.js';
import { deepFreeze } from '../support/given.js';

describe('the persistent vector behind the fold', () => {
  property([fc.array(fc.integer(), { maxLength: 2500 }), fc.nat()])(
    'holds what was pushed, in order, and a push never changes the vector it came from',
    (items, pick) => {
      const vec = deepFreeze(vecOf(items));
      expect(vec.size).toBe(items.length);
      expect(toArray(vec)).toEqual(items);
      expect(last(vec)).toBe(items.at(-1));
      const i = items.length === 0 ? 0 : pick % items.length;
      expect(at(vec, i)).toBe(items[i]);
      expect(itemsFrom(vec, i)).toEqual(items.slice(i));
      const before = structuredClone(vec);
      const longer = push(vec, 42);
      expect(vec).toEqual(before);
      expect(toArray(longer)).toEqual([...items, 42]);
    },
  );

  it('crosses three levels of the trie (past 32 * 32 * 32 items) and stays shallow', () => {
    const n = 40_000;
    let vec: Vec<number> = emptyVec;
    for (let i = 0; i < n; i++) vec = push(vec, i);
    expect(toArray(vec)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect([at(vec, 0), at(vec, 1055), at(vec, 32_799), at(vec, n - 1), at(vec, n)]).toEqual([
      0,
      1055,
      32_799,
      n - 1,
      undefined,
    ]);
    expect(vec.shift).toBe(15);
    // a state holding it can still be cloned and serialised (a linked list that long cannot)
    expect(structuredClone(vec)).toEqual(vec);
  });
});
