import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

/**
 * What `npm pack` would publish of the two packages: clearance (the CLI, the store, the operations)
 * and @clearance/fold (the pure part it depends on), each lean (no source maps, nothing huge) and
 * honest (licence, links, dependencies each its own needs).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLD = path.join(root, 'packages', 'fold');

type Manifest = {
  name: string;
  license: string;
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
  dependencies: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const manifest = (dir: string) =>
  JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
const pkg = manifest(root);
const fold = manifest(FOLD);

type Shipped = ReadonlyArray<{ path: string; size: number }>;
const packed = async (dir: string): Promise<Shipped> => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: dir,
    env: { ...process.env, npm_config_loglevel: 'silent' },
  });
  const [listing] = JSON.parse(stdout) as Array<{ files: Array<{ path: string; size: number }> }>;
  return listing?.files ?? [];
};

let shipped: Shipped = [];
let foldShipped: Shipped = [];
beforeAll(async () => {
  [shipped, foldShipped] = await Promise.all([packed(root), packed(FOLD)]);
}, 60_000);

const paths = (files: Shipped) => files.map((f) => f.path);
/**
 * The packages every `.js` file shipped imports, by name: static imports and re-exports (a line of
 * their own in tsc's output) and dynamic `import()`; Node's built-ins and the package's own `#`
 * imports aside (`#either` is fp-ts's Either, by the package's `imports`).
 */
const importedPackages = (dir: string, files: Shipped): ReadonlySet<string> =>
  new Set(
    files
      .filter((f) => f.path.endsWith('.js'))
      .flatMap((f) =>
        [
          ...readFileSync(path.join(dir, f.path), 'utf8').matchAll(
            /^(?:import|export)\b[^\n]*?\bfrom\s*['"]([^'".][^'"]*)['"]|\bimport\(\s*['"]([^'".][^'"]*)['"]\s*\)/gm,
          ),
        ].map((m) => m[1] ?? (m[2] as string)),
      )
      .filter((name) => !name.startsWith('node:') && !name.startsWith('#'))
      .map((name) =>
        name
          .split('/')
          .slice(0, name.startsWith('@') ? 2 : 1)
          .join('/'),
      ),
  );

describe('the published clearance package', () => {
  it('ships its library, the bundled CLI, the docs and the licence, and none of the fold', () => {
    expect(paths(shipped)).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/cli.js',
        'lib/index.js',
        'lib/index.d.ts',
        'lib/operations/record.js',
        'docs/log-format.md',
        'docs/completion.md',
      ]),
    );
    // the fold is its dependency, not a copy
    expect(paths(shipped).filter((p) => /^lib\/(events|projections|render|text|testing)\//.test(p))).toEqual(
      [],
    );
    expect(pkg.dependencies['@clearance/fold']).toBe(
      manifest(FOLD).name === '@clearance/fold' ? '0.1.0' : '',
    );
  });

  it('ships no source map (the sources are not shipped) and no file over 2 MB', () => {
    for (const files of [shipped, foldShipped]) {
      expect(paths(files).filter((p) => p.endsWith('.map'))).toEqual([]);
      expect(files.filter((f) => f.size > 2_000_000).map((f) => f.path)).toEqual([]);
    }
    const cli = readFileSync(path.join(root, 'dist/cli.js'), 'utf8');
    expect(cli).not.toContain('sourceMappingURL');
  });

  it('every file the README links to is shipped', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !paths(shipped).includes(path.posix.normalize(link)))).toEqual([]);
  });

  it('the licence is the MIT licence package.json names, in both packages', () => {
    for (const [dir, m] of [
      [root, pkg],
      [FOLD, fold],
    ] as const) {
      expect(m.license).toBe('MIT');
      const licence = readFileSync(path.join(dir, 'LICENSE'), 'utf8');
      expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the clearance authors\n/);
    }
  });

  it('names its repository, homepage and issue tracker', () => {
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
    expect(fold.repository?.url).toBe(pkg.repository?.url);
  });

  it('ssh2, whose optional native addon would compile at install, is an optional peer of the command that signs', () => {
    expect(pkg.dependencies.ssh2).toBeUndefined();
    expect(pkg.peerDependencies?.ssh2).toBeDefined();
    expect(pkg.peerDependenciesMeta?.ssh2?.optional).toBe(true);
    expect(pkg.devDependencies?.ssh2).toBeDefined();
  });
});

describe('the published @clearance/fold package', () => {
  it('ships only its library, its README and the licence', () => {
    expect(
      paths(foldShipped).filter((p) => !/^(lib\/.*\.(js|d\.ts)|README\.md|LICENSE|package\.json)$/.test(p)),
    ).toEqual([]);
    expect(paths(foldShipped)).toEqual(
      expect.arrayContaining([
        'lib/fold.js',
        'lib/fold.d.ts',
        'lib/schemas.js',
        'lib/testing.js',
        'lib/ed25519.js',
      ]),
    );
  });

  it('depends on what the fold itself uses, no more; zod and fast-check are optional peers of the entries that need them', () => {
    const imported = importedPackages(FOLD, foldShipped);
    const declared = new Set([
      ...Object.keys(fold.dependencies),
      ...Object.keys(fold.peerDependencies ?? {}),
    ]);
    // fp-ts is reached through the '#either' import, which the manifest maps to it
    expect([...imported, 'fp-ts'].sort()).toEqual([...declared].sort());
    expect(JSON.stringify((fold as { imports?: unknown }).imports)).toContain('fp-ts/lib/Either.js');
    expect(Object.keys(fold.dependencies).sort()).toEqual([
      '@noble/curves',
      '@noble/hashes',
      'canonicalize',
      'fp-ts',
      'io-ts',
    ]);
    for (const peer of ['zod', 'fast-check'])
      expect(fold.peerDependenciesMeta?.[peer]?.optional, peer).toBe(true);
    const importers = (name: string) =>
      paths(foldShipped).filter(
        (p) =>
          p.endsWith('.js') &&
          new RegExp(`from ['"]${name}(/[^'"]*)?['"]`).test(readFileSync(path.join(FOLD, p), 'utf8')),
      );
    expect(importers('fast-check').filter((p) => !p.startsWith('lib/testing'))).toEqual([]);
    // zod: the door schemas, the compiled report parser and the policy's door, never the fold's main entry
    expect(
      importers('zod').every((p) =>
        /^lib\/(events\/(round-report|policy-schema|event-schema|line-move-schema|schema-issues|compiled-report)|projections\/parse-policy|testing\/)/.test(
          p,
        ),
      ),
    ).toBe(true);
  });
});
