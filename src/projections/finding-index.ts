import type { RevisionCapturedData } from '../events/event.js';
import { sha256Hex } from '../events/sha256.js';
import { emptyMap, entries, entriesWithPrefix, get, type PMap, remove, set } from './pmap.js';
import type { Finding } from './state.js';
import { at, emptyVec, push, pushAll, setAt, toArray, type Vec } from './vec.js';

/**
 * A run's findings, held so that a round costs what it touches: a persistent vector of every
 * finding in the order they opened (views list them so), a persistent map from id to its place
 * there, the findings of each file (all of them, for renames, and the open ones, for the
 * touched-file rule), and the counts the verdict reads. Each finding is replaced through
 * `putFinding` and moved through `renameFiles`, the two places that keep the index and the counts
 * in step with the findings.
 *
 * Files are named by reviewers and git, so any text: they are keyed by the SHA-256 of the name,
 * which no one can make collide (a hash a reviewer could collide would let one file's findings
 * pile into one slot and make every round slow). Plain data throughout, for the checkpoint.
 */
export type Findings = Readonly<{
  /** every finding ever admitted, in the order they opened */
  inOrder: Vec<Finding>;
  /** each finding's place in `inOrder`, by id */
  places: PMap<number>;
  /** by the SHA-256 of a file name: the findings in that file now */
  files: PMap<FileFindings>;
  /** how many findings are open, and how many of those block */
  open: number;
  openBlocking: number;
}>;

/**
 * The findings in one file: the place of each (a finding leaves a file only when a rename moves
 * every finding of it, so this list never holds one that left), and the open ones by id.
 */
export type FileFindings = Readonly<{ all: Vec<number>; open: PMap<number> }>;

export const emptyFindings: Findings = Object.freeze({
  inOrder: emptyVec,
  places: emptyMap,
  files: emptyMap,
  open: 0,
  openBlocking: 0,
});

/**
 * The keys of the files this process has named lately: a file's findings are filed when they open
 * and again when they close, and a touched file is looked up every round, so one name is hashed
 * many times in a fold. Bounded, and emptied whole when full: a cache, never part of a state.
 */
const recentKeys = new Map<string, string>();
const RECENT_KEYS = 4096;

const fileKey = (file: string): string => {
  const known = recentKeys.get(file);
  if (known !== undefined) return known;
  if (recentKeys.size >= RECENT_KEYS) recentKeys.clear();
  const key = sha256Hex(file);
  recentKeys.set(file, key);
  return key;
};

const isOpen = (f: Finding): boolean => f.status === 'open';

/** The finding with this id; undefined for any other string. */
export const lookUp = (findings: Findings, id: string): Finding | undefined => {
  const place = get(findings.places, id);
  return place === undefined ? undefined : at(findings.inOrder, place);
};

export const allInOrder = (findings: Findings): Finding[] => toArray(findings.inOrder);

/** The findings whose id begins with `prefix` (lowercase hex), in the order they opened. */
export const withIdPrefix = (findings: Findings, prefix: string): Finding[] =>
  entriesWithPrefix(findings.places, prefix)
    .map((e) => e.value)
    .sort((a, b) => a - b)
    .map((place) => at(findings.inOrder, place) as Finding);

/** The open findings in `file`: each id (`key`), and its place in `inOrder` (`value`). */
export const openIn = (
  findings: Findings,
  file: string,
): ReadonlyArray<Readonly<{ key: string; value: number }>> => {
  const entry = get(findings.files, fileKey(file));
  return entry === undefined ? [] : entries(entry.open);
};

const counted = (f: Finding | undefined) => ({
  open: f !== undefined && isOpen(f) ? 1 : 0,
  openBlocking: f !== undefined && isOpen(f) && f.blocking ? 1 : 0,
});

/** The files index once `was` (at `place`, or nothing for a new finding) became `now`. */
const refiled = (
  files: PMap<FileFindings>,
  was: Finding | undefined,
  now: Finding,
  place: number,
): PMap<FileFindings> => {
  if (was !== undefined && isOpen(was) === isOpen(now)) return files;
  const key = fileKey(now.file);
  const entry = get(files, key) ?? { all: emptyVec, open: emptyMap };
  return set(files, key, {
    all: was === undefined ? push(entry.all, place) : entry.all,
    open: isOpen(now) ? set(entry.open, now.id, place) : remove(entry.open, now.id),
  });
};

/**
 * `findings` with `finding` added (a new id goes last) or put in the place of the one with its id,
 * in the same file (only `renameFiles` moves a finding): O(log n), and one hash of the file name
 * when the finding is new or its being open changes.
 */
export const putFinding = (findings: Findings, finding: Finding): Findings => {
  const place = get(findings.places, finding.id);
  const was = place === undefined ? undefined : (at(findings.inOrder, place) as Finding);
  if (was !== undefined && was.file !== finding.file)
    throw new Error(`putFinding: finding ${finding.id} would move from ${was.file}: a rename moves it`);
  const to = place ?? findings.inOrder.size;
  const before = counted(was);
  const after = counted(finding);
  return {
    inOrder: place === undefined ? push(findings.inOrder, finding) : setAt(findings.inOrder, place, finding),
    places: place === undefined ? set(findings.places, finding.id, to) : findings.places,
    files: refiled(findings.files, was, finding, to),
    open: findings.open + after.open - before.open,
    openBlocking: findings.openBlocking + after.openBlocking - before.openBlocking,
  };
};

/**
 * `f` at another place, where its reviewer cited it kept (`cited`, set the first time it moves).
 * The index is not touched: a new file goes through `renameFiles`, a new line needs nothing.
 */
export const placedAt = (f: Finding, file: string, line: number | null): Finding =>
  file === f.file && line === f.line
    ? f
    : { ...f, file, line, cited: f.cited ?? { file: f.file, line: f.line } };

/**
 * A captured rename moves a finding's `file`, open or closed; its id is the one it was born with.
 * The renames apply at once (a swap swaps), the last of two from one file wins, and only the
 * findings in renamed files are touched: each file's entry moves whole.
 */
export const renameFiles = (findings: Findings, capture: RevisionCapturedData): Findings => {
  if (capture.renames.length === 0) return findings;
  const to = new Map(capture.renames.map((r) => [r.from, r.to]));
  const moving: Array<Readonly<{ key: string; entry: FileFindings; file: string }>> = [];
  for (const [from, file] of to) {
    const key = fileKey(from);
    const entry = get(findings.files, key);
    if (from !== file && entry !== undefined) moving.push({ key, entry, file });
  }
  if (moving.length === 0) return findings;
  let files = findings.files;
  for (const { key } of moving) files = remove(files, key);
  let inOrder = findings.inOrder;
  for (const { entry, file } of moving) {
    const key = fileKey(file);
    const there = get(files, key) ?? { all: emptyVec, open: emptyMap };
    const places = toArray(entry.all);
    let open = there.open;
    for (const e of entries(entry.open)) open = set(open, e.key, e.value);
    files = set(files, key, { all: pushAll(there.all, places), open });
    for (const place of places) {
      const f = at(inOrder, place) as Finding;
      inOrder = setAt(inOrder, place, placedAt(f, file, f.line));
    }
  }
  return { ...findings, inOrder, files };
};

/** What the accessors read: a run state, or anything else that holds findings. */
type HoldsFindings = Readonly<{ findings: Findings }>;

/** The finding of the run with this full id, or undefined. */
export const findingOf = (state: HoldsFindings, id: string): Finding | undefined =>
  lookUp(state.findings, id);

/** Every finding of the run, in the order they opened. */
export const findingsInOrder = (state: HoldsFindings): ReadonlyArray<Finding> => allInOrder(state.findings);

/** The open findings in `file` (as the findings name it now, after renames), in the order they opened. */
export const openFindingsIn = (state: HoldsFindings, file: string): ReadonlyArray<Finding> =>
  openIn(state.findings, file)
    .map((e) => e.value)
    .sort((a, b) => a - b)
    .map((place) => at(state.findings.inOrder, place) as Finding);

/** How many open findings block: what the verdict reads. */
export const openBlockingCount = (state: HoldsFindings): number => state.findings.openBlocking;
