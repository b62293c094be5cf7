import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { property } from '../../property-tests/property.js';
import { at, emptyVec, itemsFrom, last, push, toArray, type Vec, vecOf } from '../../src/index.js';
import { changedIndexes, setAt } from '../../src/projections/vec.js';
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

  /** Pushes and replacements, as the fold makes them: `push` appends, `set` replaces one item. */
  const editsArb = fc.array(
    fc.oneof(fc.record({ push: fc.integer() }), fc.record({ set: fc.nat(), to: fc.integer() })),
    { maxLength: 300 },
  );

  property([fc.array(fc.integer(), { maxLength: 2500 }), editsArb])(
    'setAt replaces one item and nothing else; changedIndexes names exactly the places whose item changed',
    (items, edits) => {
      const before = deepFreeze(vecOf(items.map((n) => ({ n }))));
      let after = before;
      const model = toArray(before);
      const replaced = new Set<number>();
      for (const edit of edits) {
        if ('push' in edit) {
          after = push(after, { n: edit.push });
          model.push({ n: edit.push });
        } else if (after.size > 0) {
          const i = edit.set % after.size;
          after = setAt(after, i, { n: edit.to });
          model[i] = { n: edit.to };
          if (i < before.size) replaced.add(i);
        }
      }
      expect(toArray(after)).toEqual(model);
      expect(changedIndexes(before, after)).toEqual([...replaced].sort((a, b) => a - b));
      // it compares items by identity: a deep copy, which shares nothing, differs everywhere
      expect(changedIndexes(before, structuredClone(before))).toEqual([...Array(before.size).keys()]);
    },
  );

  it('refuses a place outside the vector, and a vector that shrank', () => {
    expect(() => setAt(vecOf([1, 2]), 2, 3)).toThrow(RangeError);
    expect(() => setAt(vecOf([1, 2]), -1, 3)).toThrow(RangeError);
    expect(() => changedIndexes(vecOf([1, 2]), vecOf([1]))).toThrow(RangeError);
  });
});
