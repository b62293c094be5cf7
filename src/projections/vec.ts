/**
 * A persistent vector: a list that never copies what it already holds. The fold appends to a
 * run's costs, outcomes, rulings, suppressed candidates and each finding's steps on every event,
 * and replaces the findings a round decides; copying a growing array for each change made the fold
 * quadratic. This is the bit-partitioned trie of Clojure's PersistentVector: 32-wide nodes and a
 * tail, so an append or a replacement copies at most 32 slots per level (depth <= 4 below a
 * million items) and shares the rest.
 *
 * Plain frozen-friendly data (arrays and one record, no classes), so states stay JSON-like:
 * `structuredClone` and deep equality work, and two vectors holding the same items in the same
 * order have the same shape whichever way they were built (incremental fold equals replay).
 */
export type Vec<T> = Readonly<{
  size: number;
  /** bits of the index consumed above the leaves, a multiple of BITS */
  shift: number;
  root: ReadonlyArray<unknown>;
  /** the last 1..32 items (empty only when the vector is) */
  tail: ReadonlyArray<T>;
}>;

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

export const emptyVec: Vec<never> = Object.freeze({
  size: 0,
  shift: BITS,
  root: Object.freeze([]),
  tail: Object.freeze([]),
});

const newPath = (level: number, node: ReadonlyArray<unknown>): ReadonlyArray<unknown> =>
  level === 0 ? node : [newPath(level - BITS, node)];

const pushTail = (
  size: number,
  level: number,
  parent: ReadonlyArray<unknown>,
  tail: ReadonlyArray<unknown>,
): ReadonlyArray<unknown> => {
  const at = ((size - 1) >>> level) & MASK;
  const copy = parent.slice();
  if (level === BITS) copy[at] = tail;
  else {
    const child = parent[at] as ReadonlyArray<unknown> | undefined;
    copy[at] = child === undefined ? newPath(level - BITS, tail) : pushTail(size, level - BITS, child, tail);
  }
  return copy;
};

/** A vector with `item` appended; `vec` is untouched. */
export const push = <T>(vec: Vec<T>, item: T): Vec<T> => {
  if (vec.tail.length < WIDTH) {
    // slice and push, not a spread: the fold appends on nearly every event
    const tail = vec.tail.slice();
    tail.push(item);
    return { size: vec.size + 1, shift: vec.shift, root: vec.root, tail };
  }
  const overflows = vec.size >>> BITS > 1 << vec.shift;
  const root = overflows
    ? [vec.root, newPath(vec.shift, vec.tail)]
    : pushTail(vec.size, vec.shift, vec.root, vec.tail);
  return { size: vec.size + 1, shift: overflows ? vec.shift + BITS : vec.shift, root, tail: [item] };
};

export const pushAll = <T>(vec: Vec<T>, items: Iterable<T>): Vec<T> => {
  let out = vec;
  for (const item of items) out = push(out, item);
  return out;
};

export const vecOf = <T>(items: Iterable<T>): Vec<T> => pushAll(emptyVec as Vec<T>, items);

const tailOffset = (vec: Vec<unknown>): number => vec.size - vec.tail.length;

const replaced = (level: number, node: ReadonlyArray<unknown>, index: number, item: unknown) => {
  const copy = node.slice();
  const slot = (index >>> level) & MASK;
  copy[slot] = level === 0 ? item : replaced(level - BITS, node[slot] as ReadonlyArray<unknown>, index, item);
  return copy;
};

/** A vector with the item at `index` (0..size-1) replaced by `item`; `vec` is untouched. */
export const setAt = <T>(vec: Vec<T>, index: number, item: T): Vec<T> => {
  if (!Number.isInteger(index) || index < 0 || index >= vec.size)
    throw new RangeError(`vec: index ${index} is outside 0..${vec.size - 1}`);
  const offset = tailOffset(vec);
  if (index >= offset) {
    const tail = vec.tail.slice();
    tail[index - offset] = item;
    return { ...vec, tail };
  }
  return { ...vec, root: replaced(vec.shift, vec.root, index, item) };
};

/** The item at `index`, or undefined outside 0..size-1. */
export const at = <T>(vec: Vec<T>, index: number): T | undefined => {
  if (!Number.isInteger(index) || index < 0 || index >= vec.size) return undefined;
  if (index >= tailOffset(vec)) return vec.tail[index - tailOffset(vec)];
  let node: ReadonlyArray<unknown> = vec.root;
  for (let level = vec.shift; level > 0; level -= BITS)
    node = node[(index >>> level) & MASK] as ReadonlyArray<unknown>;
  return node[index & MASK] as T;
};

export const last = <T>(vec: Vec<T>): T | undefined => vec.tail[vec.tail.length - 1];

const collect = (node: ReadonlyArray<unknown>, level: number, out: unknown[]): void => {
  if (level === 0) for (const item of node) out.push(item);
  else for (const child of node) collect(child as ReadonlyArray<unknown>, level - BITS, out);
};

/** Every item, in order, as a fresh array. */
export const toArray = <T>(vec: Vec<T>): T[] => {
  const out: unknown[] = [];
  collect(vec.root, vec.shift, out);
  for (const item of vec.tail) out.push(item);
  return out as T[];
};

const differing = (
  before: ReadonlyArray<unknown>,
  after: ReadonlyArray<unknown>,
  level: number,
  base: number,
  out: number[],
): void => {
  if (before === after) return;
  for (let i = 0; i < before.length; i++) {
    if (level === 0) {
      if (before[i] !== after[i]) out.push(base + i);
    } else {
      const child = before[i] as ReadonlyArray<unknown>;
      differing(child, after[i] as ReadonlyArray<unknown>, level - BITS, base + i * (1 << level), out);
    }
  }
};

/**
 * The indexes below `before.size` whose item `after` holds another object for, ascending. Made for
 * an `after` grown from `before` by `push` and `setAt`: the subtrees they share are skipped
 * unread, so this costs what changed (times the depth), not the length. Correct for any two
 * vectors with `after.size >= before.size`, only slower when they share nothing.
 */
export const changedIndexes = <T>(before: Vec<T>, after: Vec<T>): number[] => {
  if (after.size < before.size)
    throw new RangeError(`vec: ${after.size} items cannot follow ${before.size}: a vector only grows`);
  const out: number[] = [];
  const offset = tailOffset(before);
  if (offset > 0) {
    // a root that grew taller holds the old tree as its first child, level by level
    let node = after.root;
    for (let level = after.shift; level > before.shift; level -= BITS)
      node = node[0] as ReadonlyArray<unknown>;
    differing(before.root, node, before.shift, 0, out);
  }
  for (let i = offset; i < before.size; i++) if (before.tail[i - offset] !== at(after, i)) out.push(i);
  return out;
};

/** The items from `start` on (what was appended since a vector had `start` items). */
export const itemsFrom = <T>(vec: Vec<T>, start: number): T[] => {
  const out: T[] = [];
  for (let i = Math.max(0, start); i < vec.size; i++) out.push(at(vec, i) as T);
  return out;
};
