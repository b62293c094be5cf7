import type { LineMove } from '@clearance/fold/internal/events/event.js';
import type { Changes } from './changes.js';
import { git } from './git.js';

/** An open finding that cites a line, where the input the last round reviewed has it. */
export type CitedLine = Readonly<{ id: string; file: string; line: number }>;

/** One hunk of a zero-context diff: `@@ -oldStart,oldCount +newStart,newCount @@`. */
export type Hunk = Readonly<{ oldStart: number; oldCount: number; newStart: number; newCount: number }>;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * The hunks of `git diff -U0`. Every other line of a hunk begins with `+`, `-` or `\`, so a line
 * that begins `@@ -` is a header whatever the files hold. A count left out is 1.
 */
export const parseHunks = (diff: string): Hunk[] => {
  const hunks: Hunk[] = [];
  for (const line of diff.split('\n')) {
    const m = HUNK.exec(line);
    if (m === null) continue;
    hunks.push({
      oldStart: Number(m[1]),
      oldCount: m[2] === undefined ? 1 : Number(m[2]),
      newStart: Number(m[3]),
      newCount: m[4] === undefined ? 1 : Number(m[4]),
    });
  }
  return hunks;
};

/**
 * Where `line` of the old file stands in the new one: shifted by every hunk wholly above it, or,
 * when a hunk deleted or rewrote it, `outdated` at the place its code was (the first line of what
 * replaced it, or the line just above what was deleted, at least 1).
 */
export const lineAfter = (
  hunks: ReadonlyArray<Hunk>,
  line: number,
): Readonly<{ line: number; outdated: boolean }> => {
  let shift = 0;
  for (const h of hunks) {
    if (h.oldCount > 0 && line >= h.oldStart && line < h.oldStart + h.oldCount)
      return { line: Math.max(h.newStart, 1), outdated: true };
    // a hunk that deletes nothing inserts after its oldStart; one that does ends at oldStart + oldCount - 1
    const above = h.oldCount === 0 ? h.oldStart < line : h.oldStart + h.oldCount - 1 < line;
    if (above) shift += h.newCount - h.oldCount;
  }
  return { line: line + shift, outdated: false };
};

type Blob = Readonly<{ oid: string; type: string }> | null;

/** A name `git cat-file --batch-check` can be asked for: it reads one a line, and stops one at NUL. */
const askable = (file: string): boolean => !file.includes('\n') && !file.includes('\u0000');

/** What each `<tree>:<path>` names (an object id and its type), or null where nothing does: one git call. */
const objectsAt = async (repo: string, names: ReadonlyArray<string>): Promise<Blob[]> => {
  if (names.length === 0) return [];
  const out = await git(repo, ['cat-file', '--batch-check'], { input: names.map((n) => `${n}\n`).join('') });
  const lines = out.split('\n');
  return names.map((_, i) => {
    const m = /^([0-9a-f]{40,64}) (\S+) \d+$/.exec(lines[i] ?? '');
    return m === null ? null : { oid: m[1] as string, type: m[2] as string };
  });
};

/** The hunks between two blobs, as text whatever they hold, with no user's diff driver in between. */
const hunksBetween = async (repo: string, from: string, to: string): Promise<Hunk[]> =>
  parseHunks(
    await git(repo, [
      'diff',
      '-U0',
      '--no-color',
      '--no-ext-diff',
      '--no-textconv',
      '--text',
      '--end-of-options',
      from,
      to,
    ]),
  );

/**
 * Where the open findings' cited lines went from the input the last round reviewed (`from`) to
 * the new one (`to`): each file's diff, a renamed file's from its old name to its new one. Only
 * the findings' files that the changes touched are read; a finding whose file did not change needs
 * no move and gets none. A finding whose line a hunk deleted or rewrote is `outdated`, as is every
 * finding of a file that is gone (it keeps its line). A finding cited in a file the reviewed input
 * did not hold, or that is not a file, cannot be followed and keeps its line.
 */
export const lineMovesBetween = async (
  repo: string,
  from: string,
  to: string,
  changes: Changes,
  findings: ReadonlyArray<CitedLine>,
): Promise<LineMove[]> => {
  const renamed = new Map(changes.renames.map((r) => [r.from, r.to]));
  const touched = new Set([...changes.touchedFiles, ...renamed.values()]);
  const byFile = new Map<string, CitedLine[]>();
  for (const f of findings) {
    if (!touched.has(renamed.get(f.file) ?? f.file) || !askable(f.file)) continue;
    byFile.set(f.file, [...(byFile.get(f.file) ?? []), f]);
  }
  const files = [...byFile.keys()].filter((file) => askable(renamed.get(file) ?? file));
  if (files.length === 0) return [];
  const treeOf = async (rev: string) =>
    (await git(repo, ['rev-parse', '--verify', '--end-of-options', `${rev}^{tree}`])).trim();
  const [fromTree, toTree] = await Promise.all([treeOf(from), treeOf(to)]);
  const objects = await objectsAt(repo, [
    ...files.map((file) => `${fromTree}:${file}`),
    ...files.map((file) => `${toTree}:${renamed.get(file) ?? file}`),
  ]);
  const moves: LineMove[] = [];
  for (const [i, file] of files.entries()) {
    const before = objects[i];
    const after = objects[files.length + i];
    if (before?.type !== 'blob' || before.oid === after?.oid) continue;
    const cited = byFile.get(file) ?? [];
    if (after?.type !== 'blob') {
      for (const f of cited) moves.push({ id: f.id, from: f.line, to: f.line, outdated: true });
      continue;
    }
    const hunks = await hunksBetween(repo, before.oid, after.oid);
    for (const f of cited) {
      const now = lineAfter(hunks, f.line);
      if (now.outdated) moves.push({ id: f.id, from: f.line, to: now.line, outdated: true });
      else if (now.line !== f.line) moves.push({ id: f.id, from: f.line, to: now.line });
    }
  }
  return moves;
};
