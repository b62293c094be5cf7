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

const KEY_LENGTH = 64;

// a literal, not `new Array(16)`: V8 keeps it a packed array, which copies several times faster
const emptyBranch = <V>(): Slot<V>[] => [
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
  null,
];

export const emptyMap: PMap<never> = Object.freeze({ size: 0, root: Object.freeze(emptyBranch<never>()) });

const isBranch = <V>(slot: Slot<V>): slot is Branch<V> => Array.isArray(slot);

/** The key's hex digit at `depth` (0..15), or -1 for any other character. */
const digitAt = (key: string, depth: number): number => {
  const c = key.charCodeAt(depth);
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
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
  if (da < 0 || db < 0) throw new Error(`pmap: ${JSON.stringify(b.key)} is not a 64-hex key`);
  if (da === db) branch[da] = split(a, b, depth + 1);
  else {
    branch[da] = a;
    branch[db] = b;
  }
  return branch;
};

/** `node` with `entry` in it, copied along the path; the key is known not to hold `entry.value` already. */
const insert = <V>(node: Branch<V>, entry: Entry<V>, depth: number): Branch<V> => {
  const d = digitAt(entry.key, depth);
  if (d < 0) throw new Error(`pmap: ${JSON.stringify(entry.key)} is not a 64-hex key`);
  const slot = node[d] as Slot<V>;
  const copy = node.slice();
  if (slot === null || (!isBranch(slot) && slot.key === entry.key)) copy[d] = entry;
  else if (isBranch(slot)) copy[d] = insert(slot, entry, depth + 1);
  else copy[d] = split(slot, entry, depth + 1);
  return copy;
};

/**
 * The map with `key` set to `value`; `map` is untouched. Keys are 64 lowercase hex digits (a
 * digest: the digits the path reads are checked, not all 64, which would cost more than the set).
 */
export const set = <V>(map: PMap<V>, key: string, value: V): PMap<V> => {
  if (key.length !== KEY_LENGTH) throw new Error(`pmap: ${JSON.stringify(key)} is not a 64-hex key`);
  const was = get(map, key);
  if (was === value) return map;
  const root = insert(map.root, { key, value }, 0);
  return { size: was === undefined ? map.size + 1 : map.size, root };
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
