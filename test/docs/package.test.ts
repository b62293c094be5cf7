import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';

/** What `npm pack` would publish: lean (no source maps, nothing huge) and honest (licence, links, peers). */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  license: string;
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};

let shipped: ReadonlyArray<{ path: string; size: number }> = [];

beforeAll(async () => {
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: root,
    env: { ...process.env, npm_config_loglevel: 'silent' },
  });
  const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string; size: number }> }>;
  shipped = packed?.files ?? [];
}, 60_000);

const paths = () => shipped.map((f) => f.path);

describe('the published package', () => {
  it('ships the library, the bundled CLI, the docs and the licence', () => {
    expect(paths()).toEqual(
      expect.arrayContaining([
        'LICENSE',
        'README.md',
        'package.json',
        'dist/cli.js',
        'lib/index.js',
        'lib/index.d.ts',
        'lib/fold.js',
        'lib/testing.js',
        'docs/log-format.md',
        'docs/completion.md',
      ]),
    );
  });

  it('ships no source map (the sources are not shipped) and no file over 2 MB', () => {
    expect(paths().filter((p) => p.endsWith('.map'))).toEqual([]);
    expect(shipped.filter((f) => f.size > 2_000_000).map((f) => f.path)).toEqual([]);
    const cli = readFileSync(path.join(root, 'dist/cli.js'), 'utf8');
    expect(cli).not.toContain('sourceMappingURL');
  });

  it('every file the README links to is shipped', () => {
    const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#:]+)(#[^)]*)?\)/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !paths().includes(path.posix.normalize(link)))).toEqual([]);
  });

  it('the licence is the MIT licence package.json names', () => {
    expect(pkg.license).toBe('MIT');
    const licence = readFileSync(path.join(root, 'LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} the clearance authors\n/);
  });

  it('names its repository, homepage and issue tracker', () => {
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\/.+\.git$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\//);
  });

  it('fast-check is an optional peer, needed only by clearance/testing', () => {
    expect(pkg.dependencies['fast-check']).toBeUndefined();
    expect(pkg.peerDependencies?.['fast-check']).toBeDefined();
    expect(pkg.peerDependenciesMeta?.['fast-check']?.optional).toBe(true);
    expect(pkg.devDependencies['fast-check']).toBeDefined();
    const importers = paths().filter(
      (p) => p.endsWith('.js') && /from ['"]fast-check['"]/.test(readFileSync(path.join(root, p), 'utf8')),
    );
    expect(importers.length).toBeGreaterThan(0);
    expect(importers.filter((p) => !p.startsWith('lib/testing'))).toEqual([]);
  });
});
