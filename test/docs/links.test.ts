import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/git-repo.js';
import { brokenLinks } from './links.js';
import { anchorsOf, linksOf, markdownFiles, ROOT, slugOf } from './markdown.js';

/**
 * Every relative link in every Markdown file of the repository resolves: the file is there, inside
 * the repository, and a `#fragment` is the anchor GitHub gives one of the target's headings.
 */

describe('the links of every Markdown file', () => {
  const files = markdownFiles();

  it('covers the README, the other top-level documents, docs/ and the fixtures notes', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'ARCHITECTURE.md',
        'BENCHMARKS.md',
        'CHANGELOG.md',
        'docs/glossary.md',
        'docs/log-format.md',
        'test/fixtures/README.md',
      ]),
    );
  });

  it('every relative link resolves, #anchors included', () => {
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it("the README's index links to every page under docs/", () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const targets = linksOf(readme).map((link) => link.target.split('#')[0]);
    expect(files.filter((file) => file.startsWith('docs/') && !targets.includes(file))).toEqual([]);
  });
});

describe('the link checker', () => {
  const fixture = (files: Record<string, string>): string => {
    const root = tempDir('clearance-links-');
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  };

  it('reports a missing file, a missing anchor, a link out of the repository and a bad line anchor', () => {
    const root = fixture({
      'README.md': [
        '# Top',
        '',
        '[ok](docs/a.md) [ok](docs/a.md#the-one-loop) [ok](#top) [ok](src/x.ts#L3-L9) [ok](https://x.y/z)',
        '[gone](docs/missing.md) [anchor](docs/a.md#nowhere) [out](../elsewhere.md) [line](src/x.ts#intro)',
        '',
        '`[in code](nowhere.md)`',
        '',
        '```sh',
        '[in a fence](nowhere.md)',
        '```',
      ].join('\n'),
      'docs/a.md': '# A\n\n## The one `loop`\n\n[back](../README.md#top)\n',
      'src/x.ts': 'export {};\n',
    });
    expect(brokenLinks(root, ['README.md', 'docs/a.md'])).toEqual([
      'README.md:3: docs/missing.md (no such file)',
      'README.md:3: docs/a.md#nowhere (no heading with that anchor)',
      'README.md:3: ../elsewhere.md (outside the repository)',
      'README.md:3: src/x.ts#intro (a fragment into a file that is not Markdown)',
    ]);
  });
});

describe("GitHub's heading anchors", () => {
  it('lower-cases, drops punctuation and backticks, keeps letters of any script, hyphens and underscores', () => {
    expect(slugOf('Property testing with clearance/testing')).toBe('property-testing-with-clearancetesting');
    expect(slugOf('Waiting for the reviewer: publish and record --wait')).toBe(
      'waiting-for-the-reviewer-publish-and-record---wait',
    );
    expect(slugOf('Über snake_case, 2.1.0!')).toBe('über-snake_case-210');
  });

  it('numbers repeated headings as GitHub does, and reads the rendered text of a heading', () => {
    const text =
      '# Notes\n\n## Notes\n\n## Notes\n\n### `--json` and **bold** [link](x.md)\n\nSetext\n------\n';
    expect(anchorsOf(text)).toEqual(['notes', 'notes-1', 'notes-2', '--json-and-bold-link', 'setext']);
  });

  it('no heading inside a fence or an HTML comment', () => {
    expect(anchorsOf('```\n# not a heading\n```\n\n<!--\n# nor this\n-->\n\n# Real\n')).toEqual(['real']);
  });
});
