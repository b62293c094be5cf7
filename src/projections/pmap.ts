/**
 * A persistent map keyed by 64-hex strings (SHA-256 digests: finding ids, hashed file names). The
 * fold looks findings up by id and by file on every round; copying a record of every finding for
 * each change made a round cost O(findings). This is a trie on the key's hex digits, up to 16
 * children a node: a change copies one node per level (about log16 n of them) and shares the rest.
 *
 * Digests are uniformly distributed, so the trie stays balanced without rebalancing: a key sits at
 * the shallowest level where no other key shares its digits so far, and a removal folds a branch
 * left with one entry back into its parent. So the shape depends only on the entries, never on the
 * order they came and went in, and two maps with the same entries are deeply equal (a fold from a
 * checkpoint equals a fold from the start).
 *
 * A branch is `[bitmap, ...children]`, as in Bagwell's hash array mapped trie: bit d of the bitmap
 * says digit d has a child, and the children are stored in digit order with no empty slots, so the
 * checkpoint holds no run of nulls for the sparse lower levels. Plain data, like `vec.ts` (arrays,
 * records and numbers, never a hole or `undefined`), so a state holding one survives the
 * checkpoint's JSON unchanged.
 */
export type PMap<V> = Readonly<{ size: number; root: Branch<V> }>;

type Entry<V> = Readonly<{ key: string; value: V }>;
type Child<V> = Entry<V> | Branch<V>;
/** `[bitmap, ...children]`: a child for each bit set, in digit order */
type Branch<V> = readonly [number, ...Child<V>[]];

const KEY_LENGTH = 64;

export const emptyMap: PMap<never> = Object.freeze({ size: 0, root: Object.freeze([0]) as Branch<never> });

const isBranch = <V>(child: Child<V>): child is Branch<V> => Array.isArray(child);

/** The key's hex digit at `depth` (0..15), or -1 for any other character. */
const digitAt = (key: string, depth: number): number => {
  const c = key.charCodeAt(depth);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
};

/** How many bits of a 16-bit bitmap are set. */
const bitCount = (bits: number): number => {
  let n = bits - ((bits >>> 1) & 0x5555);
  n = (n & 0x3333) + ((n >>> 2) & 0x3333);
  n = (n + (n >>> 4)) & 0x0f0f;
  return (n + (n >>> 8)) & 0x1f;
};

/** Where digit `d`'s child sits in `branch` (past the bitmap). */
const slotOf = (bitmap: number, d: number): number => 1 + bitCount(bitmap & ((1 << d) - 1));

const childAt = <V>(branch: Branch<V>, d: number): Child<V> | undefined => {
  const bitmap = branch[0];
  return (bitmap & (1 << d)) === 0 ? undefined : (branch[slotOf(bitmap, d)] as Child<V>);
};

const badKey = (key: string): Error => new Error(`pmap: ${JSON.stringify(key)} is not a 64-hex key`);

/** The value under `key`; undefined when there is none (any string may be asked, only digests are found). */
export const get = <V>(map: PMap<V>, key: string): V | undefined => {
  if (key.length !== KEY_LENGTH) return undefined;
  let node: Branch<V> = map.root;
  for (let depth = 0; depth < KEY_LENGTH; depth++) {
    const d = digitAt(key, depth);
    if (d < 0) return undefined;
    const child = childAt(node, d);
    if (child === undefined) return undefined;
    if (!isBranch(child)) return child.key === key ? child.value : undefined;
    node = child;
  }
  return undefined;
};

export const has = <V>(map: PMap<V>, key: string): boolean => get(map, key) !== undefined;

/** A branch holding two entries whose keys agree up to `depth`. */
const split = <V>(a: Entry<V>, b: Entry<V>, depth: number): Branch<V> => {
  const da = digitAt(a.key, depth);
  const db = digitAt(b.key, depth);
  if (da < 0 || db < 0) throw badKey(da < 0 ? a.key : b.key);
  if (da === db) return [1 << da, split(a, b, depth + 1)];
  return da < db ? [(1 << da) | (1 << db), a, b] : [(1 << da) | (1 << db), b, a];
};

/** Whether the last `insert` added a key (rather than replacing a value): set by it, read by `set`. */
let inserted = false;

/**
 * `node` with `entry` in it, copied along the path, in one walk down; `node` itself when the key
 * holds that very value already.
 */
const insert = <V>(node: Branch<V>, entry: Entry<V>, depth: number): Branch<V> => {
  const d = digitAt(entry.key, depth);
  if (d < 0) throw badKey(entry.key);
  const bitmap = node[0];
  const slot = slotOf(bitmap, d);
  if ((bitmap & (1 << d)) === 0) {
    inserted = true;
    // built in order rather than spliced: one copy, no array handed back
    const copy = node.slice(0, slot) as [number, ...Child<V>[]];
    copy[0] = bitmap | (1 << d);
    copy.push(entry);
    for (let i = slot; i < node.length; i++) copy.push(node[i] as Child<V>);
    return copy;
  }
  const child = node[slot] as Child<V>;
  let next: Child<V>;
  if (isBranch(child)) {
    next = insert(child, entry, depth + 1);
    if (next === child) return node;
  } else if (child.key === entry.key) {
    if (child.value === entry.value) return node;
    next = entry;
  } else {
    inserted = true;
    next = split(child, entry, depth + 1);
  }
  const copy = node.slice() as [number, ...Child<V>[]];
  copy[slot] = next;
  return copy;
};

/**
 * The map with `key` set to `value`; `map` is untouched (and returned as it is when the key holds
 * that very value). Keys are 64 lowercase hex digits (a digest: the digits the path reads are
 * checked, not all 64, which would cost more than the set).
 */
export const set = <V>(map: PMap<V>, key: string, value: V): PMap<V> => {
  if (key.length !== KEY_LENGTH) throw badKey(key);
  inserted = false;
  const root = insert(map.root, { key, value }, 0);
  return root === map.root ? map : { size: inserted ? map.size + 1 : map.size, root };
};

/**
 * `node` without `key`, folded up when a branch is left with one entry and nothing below it (a
 * branch then, or an entry); null when it is left empty, undefined when `key` is not there.
 */
const without = <V>(
  node: Branch<V>,
  key: string,
  depth: number,
  isRoot: boolean,
): Child<V> | null | undefined => {
  const d = digitAt(key, depth);
  if (d < 0) return undefined;
  const child = childAt(node, d);
  if (child === undefined) return undefined;
  let replaced: Child<V> | null;
  if (isBranch(child)) {
    const inner = without(child, key, depth + 1, false);
    if (inner === undefined) return undefined;
    replaced = inner;
  } else if (child.key === key) replaced = null;
  else return undefined;
  const bitmap = node[0];
  const slot = slotOf(bitmap, d);
  const copy = node.slice() as [number, ...Child<V>[]];
  if (replaced === null) {
    copy.splice(slot, 1);
    copy[0] = bitmap & ~(1 << d);
  } else copy[slot] = replaced;
  if (isRoot) return copy;
  if (copy.length === 1) return null;
  const only = copy[1] as Child<V>;
  return copy.length === 2 && !isBranch(only) ? only : copy;
};

/** The map without `key`; `map` itself when it has no such key. */
export const remove = <V>(map: PMap<V>, key: string): PMap<V> => {
  if (key.length !== KEY_LENGTH) return map;
  const root = without(map.root, key, 0, true);
  return root === undefined ? map : { size: map.size - 1, root: root as Branch<V> };
};

const collect = <V>(node: Branch<V>, out: Array<Entry<V>>): void => {
  for (let i = 1; i < node.length; i++) {
    const child = node[i] as Child<V>;
    if (isBranch(child)) collect(child, out);
    else out.push(child);
  }
};

/** Every entry, in the order of their keys. */
export const entries = <V>(map: PMap<V>): Array<Entry<V>> => {
  const out: Array<Entry<V>> = [];
  collect(map.root, out);
  return out;
};

export const values = <V>(map: PMap<V>): V[] => entries(map).map((e) => e.value);

/** The entries whose key begins with `prefix` (hex digits), in key order: a walk down the prefix. */
export const entriesWithPrefix = <V>(map: PMap<V>, prefix: string): Array<Entry<V>> => {
  let node: Branch<V> = map.root;
  for (let depth = 0; depth < prefix.length; depth++) {
    const d = digitAt(prefix, depth);
    if (d < 0) return [];
    const child = childAt(node, d);
    if (child === undefined) return [];
    if (!isBranch(child)) return child.key.startsWith(prefix) ? [child] : [];
    node = child;
  }
  const out: Array<Entry<V>> = [];
  collect(node, out);
  return out;
};
