import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SELF = path.relative(ROOT, fileURLToPath(import.meta.url));

/** What is built or installed, not written here. */
const NOT_OURS = new Set(['node_modules', 'dist', 'lib', '.git', 'coverage', 'package-lock.json']);

const filesOf = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_OURS.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesOf(full) : [full];
  });

const texts = filesOf(ROOT)
  .filter((full) => /\.(ts|mts|mjs|js|json|md|ya?ml|sh|txt)$|^[A-Z]+$/.test(path.basename(full)))
  .map((full) => ({ file: path.relative(ROOT, full), text: readFileSync(full, 'utf8') }))
  .filter(({ file }) => file !== SELF);

/** Names of documents that live beside a checkout, never in it (written split, so this file is not one). */
const OUTSIDE = [['DESIGN', '.md'].join(''), ['STYLE', '.md'].join(''), ['..', '/shared'].join('')];

/** `[text](target)` in Markdown, with the target relative. */
const relativeLinks = (text: string): string[] =>
  [...text.matchAll(/\]\(((?!https?:|mailto:|#)[^)\s]+)\)/g)].map(
    (m) => (m[1] as string).split('#')[0] as string,
  );

describe('the repository stands alone', () => {
  it('names no document outside it', () => {
    const found = texts.flatMap(({ file, text }) =>
      OUTSIDE.filter((name) => text.includes(name)).map((name) => `${file} names ${name}`),
    );
    expect(found).toEqual([]);
  });

  it('links, in every Markdown file, only to files inside it', () => {
    const outside = texts
      .filter(({ file }) => file.endsWith('.md'))
      .flatMap(({ file, text }) =>
        relativeLinks(text)
          .filter((target) => target !== '')
          .map((target) => ({ target, resolved: path.resolve(ROOT, path.dirname(file), target) }))
          .filter(({ resolved }) => path.relative(ROOT, resolved).startsWith('..'))
          .map(({ target }) => `${file} links to ${target}`),
      );
    expect(outside).toEqual([]);
  });

  it('finds what it looks for', () => {
    expect(texts.some(({ file }) => file === 'README.md')).toBe(true);
    expect(relativeLinks('see [a](../b.md#x) and [c](https://x.y) [d](docs/e.md)')).toEqual([
      '../b.md',
      'docs/e.md',
    ]);
  });
});
