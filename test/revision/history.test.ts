import { chmodSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../property-tests/runs.js';
import type { RevisionCapturedData } from '../../src/events/event.js';
import { captureRevision } from '../../src/revision/index.js';
import { linesOf, makeRepo, type TestRepo } from '../support/git-repo.js';
import { expectedChanges } from './support/diff.js';

/** mulberry32: a tiny seeded generator, so the history (and any failure) is the same on every run. */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/**
 * Names git must carry byte for byte: spaces, non-ASCII, a quote, dots and a colon inside a name.
 * (A name with a tab or a newline is no repository path: it refuses the capture, capture.test.ts.)
 */
const NAMES = ['plain.ts', 'with space.ts', 'ünïcødé.md', 'quote"d.ts', 'two..dots.ts', 'co:lon.ts'];
/** 40 commits at full scale (CI), 12 in a local run: the same assertions over a shorter history. */
const COMMITS = scaled(40, 12);

type Step = { reviewed: string; reviewedTree: string; head: string; capture: RevisionCapturedData };

/**
 * A history of add, modify, delete, rename (pure and edited), mode and type changes, captured after
 * every commit against the commit before it, as a driver would between rounds.
 */
const buildAndCapture = async (repo: TestRepo): Promise<Step[]> => {
  const next = random(20261130);
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[Math.floor(next() * xs.length)] as T;
  const files = new Map<string, string>();
  let serial = 0;
  const fresh = (): string =>
    `${pick(['src', 'lib/deep', 'docs', '.'])}/${serial++}-${pick(NAMES)}`.replace(/^\.\//, '');
  const put = (path: string, content: string): void => {
    repo.write(path, content);
    files.set(path, content);
  };
  for (let i = 0; i < 6; i++) put(fresh(), linesOf(`seed ${i}`, 20));
  let reviewed = repo.commitAll('seed');

  const steps: Step[] = [];
  for (let c = 0; c < COMMITS; c++) {
    const ops = 1 + Math.floor(next() * 3);
    for (let o = 0; o < ops; o++) {
      const paths = [...files.keys()];
      const path = pick(paths);
      const content = files.get(path) ?? '';
      const op =
        paths.length < 4 ? 'add' : pick(['add', 'modify', 'delete', 'rename', 'rename-edit', 'mode', 'type']);
      if (op === 'add') put(fresh(), linesOf(`file ${serial}`, 10 + Math.floor(next() * 20)));
      if (op === 'modify') put(path, `${content}edit ${c}.${o}\n`);
      if (op === 'delete' || op === 'rename' || op === 'rename-edit' || op === 'type') {
        repo.remove(path);
        files.delete(path);
      }
      if (op === 'rename') put(fresh(), content);
      if (op === 'rename-edit') put(fresh(), `${content}moved and edited ${c}\n`);
      if (op === 'mode') chmodSync(join(repo.dir, path), 0o755);
      if (op === 'type') symlinkSync('plain.ts', join(repo.dir, path));
    }
    const head = repo.commitAll(`commit ${c}`);
    const reviewedTree = repo.git('rev-parse', `${reviewed}^{tree}`).trim();
    // alternate the two forms a driver may know the last reviewed input by
    const lastReviewed =
      c % 2 === 0 ? { commit: reviewed } : { commit: 'ignored-when-a-tree-is-known', tree: reviewedTree };
    steps.push({
      reviewed,
      reviewedTree,
      head,
      capture: await captureRevision({ round: c + 2, repo: repo.dir, lastReviewed }),
    });
    reviewed = head;
  }
  return steps;
};

describe('captureRevision across a real history', () => {
  it('agrees with git diff-tree on every consecutive pair of 40 commits', async () => {
    const repo = makeRepo();
    const steps = await buildAndCapture(repo);
    expect(steps).toHaveLength(COMMITS);

    const seen = { renames: 0, touched: 0, statuses: new Set<string>() };
    for (const { reviewed, head, capture } of steps) {
      const raw = repo.git('diff-tree', '-r', '-M', '--name-status', '-z', reviewed, head);
      for (const field of raw.split('\0')) if (/^[A-Z]\d*$/.test(field)) seen.statuses.add(field.charAt(0));
      const expected = expectedChanges(raw);
      expect({ commit: capture.commit, tree: capture.tree }).toEqual({
        commit: head,
        tree: repo.git('rev-parse', `${head}^{tree}`).trim(),
      });
      expect(capture.inputSha).toBe(head);
      expect(capture.touchedFiles).toEqual(expected.touched);
      expect(capture.renames).toEqual(expected.renames);
      seen.renames += expected.renames.length;
      seen.touched += expected.touched.length;
    }
    // the history must actually exercise what it claims to, or agreeing proves little
    expect(seen.renames).toBeGreaterThanOrEqual(5);
    expect([...seen.statuses].sort()).toEqual(['A', 'D', 'M', 'R', 'T']);
    expect(steps.some((s) => s.capture.touchedFiles.some((f) => f.includes('ünïcødé')))).toBe(true);
    expect(steps.some((s) => s.capture.touchedFiles.some((f) => f.includes(' ')))).toBe(true);
  });
});
