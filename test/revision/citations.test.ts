import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Candidate } from '../../src/events/report-types.js';
import { citationOf } from '../../src/projections/views/findings.js';
import { captureRevision, lineCount, resolveCitations } from '../../src/revision/index.js';
import { linesOf, makeRepo, type TestRepo, tempDir } from '../support/git-repo.js';

const GUIDE = `---
title: a front matter block
---
# Guide

Intro text.

## Install ##

  ###   Many   Spaces   Inside

Setext Title
============

Two line
setext heading
--------------

\`\`\`sh
# not a heading: inside a fence
\`\`\`

## Usage
`;

const NOTES = `# Notes

<!--
## Draft heading
-->

> ## Quoted note

## The *Install* step
`;

const cite = (file: string, at: { line?: number; section?: string }): Candidate => ({
  file,
  ...at,
  category: 'prose',
  summary: `about ${file}`,
  severity: 'major',
  confirmed: true,
  evidence: 'seen',
});

let repo: TestRepo;
let commit: string;

beforeAll(() => {
  repo = makeRepo();
  repo.write('src/a.ts', linesOf('a', 12));
  repo.write('src/no-eol.ts', 'one\ntwo\nthree');
  repo.write('docs/guide.md', GUIDE);
  repo.write('docs/notes.md', NOTES);
  commit = repo.commitAll('one');
});

describe('resolveCitations of lines', () => {
  it('resolves a line inside the file and refuses one past its end with the line count', async () => {
    const candidates = [
      cite('src/a.ts', { line: 1 }),
      cite('src/a.ts', { line: 12 }),
      cite('src/a.ts', { line: 40 }),
    ];
    const checks = await resolveCitations({ repo: repo.dir, rev: commit }, candidates);
    expect(checks).toEqual([
      { candidate: 0, citation: 'src/a.ts:1', resolved: true },
      { candidate: 1, citation: 'src/a.ts:12', resolved: true },
      {
        candidate: 2,
        citation: 'src/a.ts:40',
        resolved: false,
        reason: 'src/a.ts has 12 lines; line 40 is past its end',
      },
    ]);
  });

  it('counts a last line without a newline as a line', async () => {
    const [three, four] = await resolveCitations({ repo: repo.dir, rev: commit }, [
      cite('src/no-eol.ts', { line: 3 }),
      cite('src/no-eol.ts', { line: 4 }),
    ]);
    expect(three?.resolved).toBe(true);
    expect(four?.reason).toBe('src/no-eol.ts has 3 lines; line 4 is past its end');
  });

  it('refuses a file that does not exist at the revision, naming the short revision', async () => {
    const [check] = await resolveCitations({ repo: repo.dir, rev: commit }, [
      cite('src/missing.ts', { line: 1 }),
    ]);
    expect(check).toEqual({
      candidate: 0,
      citation: 'src/missing.ts:1',
      resolved: false,
      reason: `src/missing.ts does not exist at revision ${commit.slice(0, 12)}`,
    });
  });

  it('refuses a directory and a line that is not a line number', async () => {
    const checks = await resolveCitations({ repo: repo.dir, rev: commit }, [
      cite('src', { line: 1 }),
      cite('src/a.ts', { line: 0 }),
      cite('src/a.ts', { line: 2.5 }),
    ]);
    expect(checks.map((c) => c.resolved)).toEqual([false, false, false]);
    expect(checks[0]?.reason).toContain('src is a tree, not a file');
    expect(checks[1]?.reason).toContain('lines start at 1');
  });

  it('never resolves a name that is no repository path, though git would read it as another file', async () => {
    // git stops a name at NUL: asked for `src/a.ts\0../../x` it answers for src/a.ts
    const checks = await resolveCitations({ repo: repo.dir, rev: commit }, [
      cite('src/a.ts\u0000../../x', { line: 1 }),
      cite('src/../src/a.ts', { line: 1 }),
      cite(`${repo.dir}/src/a.ts`, { line: 1 }),
      cite('src/a.ts', { line: 1 }),
    ]);
    expect(checks.map((c) => c.resolved)).toEqual([false, false, false, true]);
    expect(checks[0]?.reason).toBe(
      '"src/a.ts\\u0000../../x" is not a path in the repository: it holds the control character \\u0000',
    );
    expect(checks[1]?.reason).toMatch(/it has a "\.\." name/);
    expect(checks[2]?.reason).toMatch(/it is absolute/);
  });

  it('never asks git for a name with a NUL or a newline, which it would read as another name', async () => {
    const { filesAtRevision } = await import('../../src/revision/blobs.js');
    const files = await filesAtRevision(repo.dir, commit, ['src/a.ts\u0000x', 'src/a.ts\nx', 'src/a.ts']);
    expect(files.get('src/a.ts\u0000x')).toEqual({ kind: 'unaskable' });
    expect(files.get('src/a.ts\nx')).toEqual({ kind: 'unaskable' });
    expect(files.get('src/a.ts')?.kind).toBe('file');
  });

  it('reads the captured commit, not the work tree', async () => {
    const local = makeRepo();
    local.write('src/a.ts', linesOf('a', 12));
    const reviewed = local.commitAll('reviewed');
    local.write('src/a.ts', 'shrunk\n');
    const atReviewed = await resolveCitations({ repo: local.dir, rev: reviewed }, [
      cite('src/a.ts', { line: 12 }),
    ]);
    expect(atReviewed[0]?.resolved).toBe(true);
    const later = local.commitAll('shrink');
    const atLater = await resolveCitations({ repo: local.dir, rev: later }, [cite('src/a.ts', { line: 12 })]);
    expect(atLater[0]?.reason).toBe('src/a.ts has 1 line; line 12 is past its end');
  });

  it('reads a dirty capture from the tree it bound, untracked files included', async () => {
    const local = makeRepo();
    local.commitAll('empty');
    local.write('fresh.ts', linesOf('fresh', 3));
    const captured = await captureRevision({ round: 1, repo: local.dir, allowDirty: true });
    local.remove('fresh.ts');
    const [check] = await resolveCitations({ repo: local.dir, rev: captured.tree }, [
      cite('fresh.ts', { line: 3 }),
    ]);
    expect(check?.resolved).toBe(true);
  });

  it('fails loudly on a revision that does not exist', async () => {
    await expect(
      resolveCitations({ repo: repo.dir, rev: 'no-such-rev' }, [cite('src/a.ts', { line: 1 })]),
    ).rejects.toMatchObject({ code: 'git-failed' });
  });
});

describe('resolveCitations of sections', () => {
  it('resolves ATX, closed ATX, setext and multi-line setext headings, whitespace collapsed', async () => {
    const sections = [
      'Guide',
      'Install',
      'Many Spaces Inside',
      ' Setext  Title ',
      'Two line setext heading',
      'Usage',
    ];
    const checks = await resolveCitations(
      { repo: repo.dir, rev: commit },
      sections.map((section) => cite('docs/guide.md', { section })),
    );
    expect(checks.map((c) => [c.citation, c.resolved])).toEqual(
      sections.map((section) => [`docs/guide.md § ${section}`, true]),
    );
  });

  it('refuses a missing heading, a fenced one, a front matter line and a case mismatch, listing the headings', async () => {
    const checks = await resolveCitations({ repo: repo.dir, rev: commit }, [
      cite('docs/guide.md', { section: 'Uninstall' }),
      cite('docs/guide.md', { section: 'not a heading: inside a fence' }),
      cite('docs/guide.md', { section: 'title: a front matter block' }),
      cite('docs/guide.md', { section: 'install' }),
    ]);
    expect(checks.map((c) => c.resolved)).toEqual([false, false, false, false]);
    expect(checks[0]?.reason).toBe(
      'docs/guide.md has no heading "Uninstall"; its headings are "Guide", "Install", "Many Spaces Inside", "Setext Title", "Two line setext heading" and 1 more',
    );
  });
});

describe('resolveCitations of sections, as CommonMark reads headings', () => {
  it('resolves a quoted heading and an emphasised one by its rendered and its typed text; never a commented-out one', async () => {
    const sections = ['Quoted note', 'The Install step', 'The *Install* step', 'Draft heading'];
    const checks = await resolveCitations(
      { repo: repo.dir, rev: commit },
      sections.map((section) => cite('docs/notes.md', { section })),
    );
    expect(checks.map((c) => c.resolved)).toEqual([true, true, true, false]);
    expect(checks[3]?.reason).toBe(
      'docs/notes.md has no heading "Draft heading"; its headings are "Notes", "Quoted note", "The Install step"',
    );
  });
});

describe('resolveCitations of a document artifact', () => {
  const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

  it('reads the artifact by its name from disk while its bytes still hash to the capture', async () => {
    const path = join(tempDir(), 'spec.md');
    writeFileSync(path, '# Spec\n\n## Scope\n');
    const artifact = { path, sha: sha('# Spec\n\n## Scope\n'), name: 'spec.md' };
    const candidates = [
      cite('spec.md', { section: 'Scope' }),
      cite('spec.md', { line: 3 }),
      cite('spec.md', { line: 4 }),
    ];
    const checks = await resolveCitations({ artifact }, candidates);
    expect(checks.map((c) => c.resolved)).toEqual([true, true, false]);

    writeFileSync(path, '# Spec\n\n## Scope\n\nedited\n');
    const [changed] = await resolveCitations({ artifact }, candidates);
    expect(changed?.resolved).toBe(false);
    expect(changed?.reason).toContain('the artifact changed since it was captured');
  });

  it('cannot resolve another file without a repository', async () => {
    const artifact = { path: join(tempDir(), 'spec.md'), sha: sha(''), name: 'spec.md' };
    const [check] = await resolveCitations({ artifact }, [cite('src/a.ts', { line: 1 })]);
    expect(check?.resolved).toBe(false);
    expect(check?.reason).toContain('no repository');
  });

  it('mixes artifact and repository citations and keeps candidate order', async () => {
    const path = join(tempDir(), 'spec.md');
    writeFileSync(path, '# Spec\n');
    const artifact = { path, sha: sha('# Spec\n'), name: 'spec.md' };
    const candidates = [
      cite('src/a.ts', { line: 12 }),
      cite('spec.md', { section: 'Spec' }),
      cite('src/missing.ts', { line: 1 }),
      cite('docs/guide.md', { section: 'Usage' }),
    ];
    const checks = await resolveCitations({ repo: repo.dir, rev: commit, artifact }, candidates);
    expect(checks.map((c) => c.candidate)).toEqual([0, 1, 2, 3]);
    expect(checks.map((c) => c.citation)).toEqual(
      candidates.map((c) => citationOf({ file: c.file, line: c.line ?? null, section: c.section ?? null })),
    );
    expect(checks.map((c) => c.resolved)).toEqual([true, true, false, true]);
  });
});

describe('lineCount', () => {
  it('counts lines as an editor numbers them', () => {
    const count = (s: string) => lineCount(Buffer.from(s));
    expect([count(''), count('a'), count('a\n'), count('a\nb'), count('a\n\n'), count('a\r\nb\r\n')]).toEqual(
      [0, 1, 1, 2, 2, 2],
    );
  });
});
