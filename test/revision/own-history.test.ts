import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../property-tests/runs.js';
import { captureRevision } from '../../src/revision/index.js';
import { tempDir } from '../support/git-repo.js';
import { expectedChanges } from './support/diff.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    env: { ...process.env, LC_ALL: 'C' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });

/** This repository's own first-parent history, when the tests run in a git checkout that has it. */
const ownHistory = (): string[] => {
  try {
    return git(here, 'rev-list', '--first-parent', '--reverse', 'HEAD').trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};
const commits = ownHistory();

describe('capture across real history', () => {
  it.runIf(commits.length >= 10)(
    "touched files and renames between consecutive commits of clearance's own history equal git's own diff-tree",
    async () => {
      const clone = tempDir();
      git(clone, 'clone', '-q', '--no-checkout', git(here, 'rev-parse', '--show-toplevel').trim(), '.');
      // the last 30 consecutive pairs at full scale (CI), the last 10 in a local run
      const pairs = commits
        .slice(-(scaled(30, 10) + 1))
        .map((c, i, all) => [all[i - 1], c] as const)
        .slice(1);
      let compared = 0;
      return (async () => {
        for (const [from, to] of pairs) {
          if (from === undefined) continue;
          git(clone, 'checkout', '-q', '--detach', to);
          const capture = await captureRevision({ round: 2, repo: clone, lastReviewed: { commit: from } });
          const expected = expectedChanges(
            git(clone, 'diff-tree', '-r', '-M', '--name-status', '-z', from, to),
          );
          expect(capture.commit).toBe(to);
          expect([...capture.touchedFiles].sort()).toEqual([...expected.touched].sort());
          expect(capture.renames).toEqual(expected.renames);
          compared += 1;
        }
        expect(compared).toBe(pairs.length);
      })();
    },
  );
});
