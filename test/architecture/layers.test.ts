import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/**
 * The layers, lowest first (ARCHITECTURE.md draws them). A file may import its own layer or a
 * lower one, never a higher one: the events know nothing of the fold, the rules nothing of the
 * views over their result, the store nothing of the command line.
 */
const LAYERS: ReadonlyArray<readonly [layer: string, folders: ReadonlyArray<string>]> = [
  ['events, untrusted text', ['events', 'text', 'errors.ts']],
  ['projections (the fold and its rules)', ['projections']],
  ['views', ['projections/views', 'projections/index.ts']],
  ['input (bounded, exact reading of files and streams)', ['input']],
  [
    'store, handoff, revision, signing, render, testing',
    ['store', 'handoff', 'revision', 'signing', 'render', 'testing'],
  ],
  ['operations', ['operations']],
  ['cli, mcp', ['cli', 'mcp']],
  ['package entries', ['index.ts', 'fold.ts', 'schemas.ts', 'testing.ts', 'ed25519.ts', 'main.ts']],
];

/** The layer of a file under src/: the longest folder (or file) that holds it. */
const layerOf = (file: string): number => {
  let best = -1;
  let bestLength = -1;
  LAYERS.forEach(([, folders], rank) => {
    for (const folder of folders) {
      if ((file === folder || file.startsWith(`${folder}/`)) && folder.length > bestLength) {
        best = rank;
        bestLength = folder.length;
      }
    }
  });
  return best;
};

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });

/** Every relative module a file names: static imports and re-exports, `import type`, and `import()`. */
const importsOf = (text: string): string[] =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"](\.{1,2}\/[^'"]+)['"]/gm)].map(
    (m) => m[1] as string,
  );

const relativeToSrc = (from: string, specifier: string): string =>
  path
    .relative(SRC, path.resolve(path.dirname(from), specifier))
    .replace(/\.js$/, '.ts')
    .split(path.sep)
    .join('/');

const files = sourceFiles(SRC).map((full) => ({
  full,
  file: path.relative(SRC, full).split(path.sep).join('/'),
}));

describe('the layers under src/', () => {
  it('places every source file in a layer', () => {
    expect(files.filter(({ file }) => layerOf(file) === -1).map(({ file }) => file)).toEqual([]);
  });

  it('has no import pointing up a layer', () => {
    const upward = files.flatMap(({ full, file }) =>
      importsOf(readFileSync(full, 'utf8')).flatMap((specifier) => {
        const target = relativeToSrc(full, specifier);
        const [from, to] = [layerOf(file), layerOf(target)];
        return to > from ? [`${file} (${LAYERS[from]?.[0]}) imports ${target} (${LAYERS[to]?.[0]})`] : [];
      }),
    );
    expect(upward).toEqual([]);
  });

  it('keeps the views to those who show them: the store, handoff and revision read state, not views', () => {
    const readers = files.filter(({ file }) => /^(store|handoff|revision)\//.test(file));
    const viewImports = readers.flatMap(({ full, file }) =>
      importsOf(readFileSync(full, 'utf8'))
        .map((specifier) => relativeToSrc(full, specifier))
        .filter((target) => target.startsWith('projections/views/') || target === 'projections/index.ts')
        .map((target) => `${file} imports ${target}`),
    );
    expect(viewImports).toEqual([]);
  });

  it('keeps the two front doors apart: src/cli and src/mcp never import each other, only the entry knows both', () => {
    const across = files.flatMap(({ full, file }) => {
      const door = file.split('/')[0];
      if (door !== 'cli' && door !== 'mcp') return [];
      const other = door === 'cli' ? 'mcp/' : 'cli/';
      return importsOf(readFileSync(full, 'utf8'))
        .map((specifier) => relativeToSrc(full, specifier))
        .filter((target) => target.startsWith(other))
        .map((target) => `${file} imports ${target}`);
    });
    expect(across).toEqual([]);
    // and the check can fail: the entry does import both
    const entry = importsOf(readFileSync(path.join(SRC, 'main.ts'), 'utf8'));
    expect(entry.some((s) => s.includes('/cli/'))).toBe(true);
    expect(entry.some((s) => s.includes('/mcp/'))).toBe(true);
  });

  it('reads imports as written, so a missed import cannot hide an upward one', () => {
    const text = [
      "import { a } from '../views/a.js';",
      "import type { B } from '../views/b.js';",
      "export { c } from '../views/c.js';",
      "const { d } = await import('../views/d.js');",
      "import '../views/e.js';",
      "import { f } from 'node:fs';",
    ].join('\n');
    expect(importsOf(text)).toEqual([
      '../views/a.js',
      '../views/b.js',
      '../views/c.js',
      '../views/d.js',
      '../views/e.js',
    ]);
    expect(layerOf('projections/rules/citations.ts')).toBeLessThan(layerOf('projections/views/findings.ts'));
  });
});
