/**
 * A persistent map keyed by 64-hex strings (SHA-256 digests: finding ids, hashed file names). The
 * fold looks findings up by id and by file on every round; copying a record of every finding for
 * each change made a round cost O(findings). This is a trie on the key's hex digits, 16 slots a
 * node: a change copies one node per level (about log16 n of them) and shares the rest.
 *
 * Digests are uniformly distributed, so the trie stays balanced without rebalancing: a key sits at
 * the shallowest level where no other key shares its digits so far, and a removal folds a branch
 * left with one entry back into its parent. So the shape depends only on the entries, never on the
 * order they came and went in, and two maps with the same entries are deeply equal (a fold from a
 * checkpoint equals a fold from the start).
 *
 * Plain data, like `vec.ts`: arrays, records and `null` (never a hole or `undefined`, which JSON
 * would not read back as written), so a state holding one survives the checkpoint's JSON unchanged.
 */
export type PMap<V> = Readonly<{ size: number; root: Branch<V> }>;

type Entry<V> = Readonly<{ key: string; value: V }>;
type Slot<V> = Entry<V> | Branch<V> | null;
/** 16 slots, one per hex digit */
type Branch<V> = ReadonlyArray<Slot<V>>;

const WIDTH = 16;
const KEY_LENGTH = 64;

const emptyBranch = <V>(): Slot<V>[] => new Array<Slot<V>>(WIDTH).fill(null);

export const emptyMap: PMap<never> = Object.freeze({ size: 0, root: Object.freeze(emptyBranch<never>()) });

const isBranch = <V>(slot: Slot<V>): slot is Branch<V> => Array.isArray(slot);

/** The key's hex digit at `depth` (0..15), or -1 for any other character. */
const digitAt = (key: string, depth: number): number => {
  const c = key.charCodeAt(depth);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
};

const isKey = (key: string): boolean => {
  if (key.length !== KEY_LENGTH) return false;
  for (let i = 0; i < KEY_LENGTH; i++) if (digitAt(key, i) < 0) return false;
  return true;
};

/** The value under `key`; undefined when there is none (any string may be asked, only digests are found). */
export const get = <V>(map: PMap<V>, key: string): V | undefined => {
  if (key.length !== KEY_LENGTH) return undefined;
  let node: Branch<V> = map.root;
  for (let depth = 0; depth < KEY_LENGTH; depth++) {
    const d = digitAt(key, depth);
    if (d < 0) return undefined;
    const slot = node[d] as Slot<V>;
    if (slot === null) return undefined;
    if (!isBranch(slot)) return slot.key === key ? slot.value : undefined;
    node = slot;
  }
  return undefined;
};

export const has = <V>(map: PMap<V>, key: string): boolean => get(map, key) !== undefined;

/** A branch holding two entries whose keys agree up to `depth`. */
const split = <V>(a: Entry<V>, b: Entry<V>, depth: number): Branch<V> => {
  const branch = emptyBranch<V>();
  const da = digitAt(a.key, depth);
  const db = digitAt(b.key, depth);
  if (da === db) branch[da] = split(a, b, depth + 1);
  else {
    branch[da] = a;
    branch[db] = b;
  }
  return branch;
};

const insert = <V>(
  node: Branch<V>,
  entry: Entry<V>,
  depth: number,
): Readonly<{ node: Branch<V>; added: boolean }> => {
  const d = digitAt(entry.key, depth);
  const slot = node[d] as Slot<V>;
  const copy = node.slice();
  let added = true;
  if (slot === null) copy[d] = entry;
  else if (isBranch(slot)) {
    const inner = insert(slot, entry, depth + 1);
    copy[d] = inner.node;
    added = inner.added;
  } else if (slot.key === entry.key) {
    if (slot.value === entry.value) return { node, added: false };
    copy[d] = entry;
    added = false;
  } else copy[d] = split(slot, entry, depth + 1);
  return { node: copy, added };
};

/** The map with `key` set to `value`; `map` is untouched. Keys are 64 lowercase hex digits. */
export const set = <V>(map: PMap<V>, key: string, value: V): PMap<V> => {
  if (!isKey(key)) throw new Error(`pmap: ${JSON.stringify(key)} is not a 64-hex key`);
  const { node, added } = insert(map.root, { key, value }, 0);
  return node === map.root ? map : { size: added ? map.size + 1 : map.size, root: node };
};

/**
 * `node` without `key`, folded up when a branch is left with one entry and nothing below it;
 * undefined when `key` is not there.
 */
const without = <V>(node: Branch<V>, key: string, depth: number, isRoot: boolean): Slot<V> | undefined => {
  const d = digitAt(key, depth);
  if (d < 0) return undefined;
  const slot = node[d] as Slot<V>;
  if (slot === null) return undefined;
  let replaced: Slot<V>;
  if (isBranch(slot)) {
    const inner = without(slot, key, depth + 1, false);
    if (inner === undefined) return undefined;
    replaced = inner;
  } else if (slot.key === key) replaced = null;
  else return undefined;
  const copy = node.slice();
  copy[d] = replaced;
  if (isRoot) return copy;
  let only: Slot<V> = null;
  let count = 0;
  for (const s of copy) {
    if (s === null) continue;
    count += 1;
    only = s;
  }
  if (count === 0) return null;
  return count === 1 && only !== null && !isBranch(only) ? only : copy;
};

/** The map without `key`; `map` itself when it has no such key. */
export const remove = <V>(map: PMap<V>, key: string): PMap<V> => {
  if (key.length !== KEY_LENGTH) return map;
  const root = without(map.root, key, 0, true);
  return root === undefined ? map : { size: map.size - 1, root: root as Branch<V> };
};

const collect = <V>(node: Branch<V>, out: Array<Entry<V>>): void => {
  for (const slot of node) {
    if (slot === null) continue;
    if (isBranch(slot)) collect(slot, out);
    else out.push(slot);
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
    const slot = node[d] as Slot<V>;
    if (slot === null) return [];
    if (!isBranch(slot)) return slot.key.startsWith(prefix) ? [slot] : [];
    node = slot;
  }
  const out: Array<Entry<V>> = [];
  collect(node, out);
  return out;
};
