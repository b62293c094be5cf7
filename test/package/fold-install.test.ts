import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { fencedBlocks, ROOT } from '../docs/markdown.js';
import { tempDir } from '../support/tmp.js';

/**
 * The two packages as a user installs them, into an empty project, from the tarballs `npm pack`
 * makes (from npm's cache: every dependency is there since the repository's own install):
 * `@clearance/fold` alone brings a handful of packages, runs no install script, and runs
 * docs/embedding.md's examples as written, each importing only what the project installed;
 * `clearance` compiles nothing.
 */
const exec = promisify(execFile);
const npm = (args: ReadonlyArray<string>, cwd: string) =>
  exec('npm', [...args], {
    cwd,
    env: {
      ...process.env,
      npm_config_loglevel: 'error',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
    maxBuffer: 64 * 1024 * 1024,
  });

const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, { version?: string }>;
};
const pinned = (name: string): string => `${name}@${lock.packages[`node_modules/${name}`]?.version}`;

/** Both packages as `npm pack` makes them (built already: `npm test` builds first), running no script. */
const packed = async (): Promise<Readonly<{ fold: string; clearance: string }>> => {
  const out = await tempDir('clearance-packed-');
  const pack = async (dir: string) => {
    const { stdout } = await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', out], dir);
    const [made] = JSON.parse(stdout) as Array<{ filename: string }>;
    return path.join(out, made?.filename ?? '');
  };
  return { fold: await pack(path.join(ROOT, 'packages', 'fold')), clearance: await pack(ROOT) };
};

/** An empty project, with whatever `specs` installs in it. */
const project = async (specs: ReadonlyArray<string>): Promise<string> => {
  const dir = await tempDir('clearance-consumer-');
  await writeFile(
    path.join(dir, 'package.json'),
    '{ "name": "consumer", "private": true, "type": "module" }\n',
  );
  await npm(['install', '--prefer-offline', ...specs], dir);
  return dir;
};

/** Every package installed under `dir`'s node_modules, nested ones included: its directory. */
const installed = (dir: string): string[] => {
  const found: string[] = [];
  const walk = (modules: string) => {
    if (!existsSync(modules)) return;
    for (const name of readdirSync(modules)) {
      if (name.startsWith('.')) continue;
      const at = path.join(modules, name);
      if (name.startsWith('@')) {
        for (const scoped of readdirSync(at)) visit(path.join(at, scoped));
      } else visit(at);
    }
  };
  const visit = (at: string) => {
    if (!existsSync(path.join(at, 'package.json'))) return;
    found.push(at);
    walk(path.join(at, 'node_modules'));
  };
  walk(path.join(dir, 'node_modules'));
  return found;
};

const bytesUnder = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) return sum;
    return sum + (entry.isDirectory() ? bytesUnder(at) : statSync(at).size);
  }, 0);

/** What would compile or run at install: a lifecycle script, or a native addon's binding.gyp. */
const installScripts = (dirs: ReadonlyArray<string>): string[] =>
  dirs.filter((dir) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
      gypfile?: boolean;
    };
    const scripts = manifest.scripts ?? {};
    return (
      ['preinstall', 'install', 'postinstall'].some((s) => scripts[s] !== undefined) ||
      manifest.gypfile === true ||
      existsSync(path.join(dir, 'binding.gyp'))
    );
  });

const embedding = readFileSync(path.join(ROOT, 'docs/embedding.md'), 'utf8');
/** The TypeScript example under `heading` in docs/embedding.md. */
const exampleUnder = (heading: string): string => {
  const at = embedding.indexOf(`\n${heading}\n`);
  if (at === -1) throw new Error(`docs/embedding.md has no ${heading}`);
  const [block] = fencedBlocks(embedding.slice(at), 'ts');
  if (block === undefined) throw new Error(`no ts example under ${heading}`);
  return block.code;
};

/** The packages an example imports, by name. */
const importsOf = (code: string): string[] =>
  [...code.matchAll(/^import\b[^;]*?from '([^'.][^']*)'/gms)].map((m) =>
    (m[1] as string)
      .split('/')
      .slice(0, (m[1] as string).startsWith('@') ? 2 : 1)
      .join('/'),
  );

/** Run an example as the project's own module, its types stripped as a user's build would. */
const runExample = async (dir: string, name: string, heading: string, direct: ReadonlyArray<string>) => {
  const code = exampleUnder(heading);
  // importing only what the project installed itself, never what npm hoisted for the fold
  expect(importsOf(code).filter((pkg) => !direct.includes(pkg))).toEqual([]);
  const js = (await transform(code, { loader: 'ts', format: 'esm', target: 'node20' })).code;
  await writeFile(path.join(dir, `${name}.mjs`), js);
  return exec(process.execPath, [`${name}.mjs`], { cwd: dir }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
};

describe('@clearance/fold installed alone, as an embedder would', () => {
  it('brings at most 6 packages and 20 MB, runs no install script, and its examples run as written', async () => {
    const tarballs = await packed();
    const dir = await project([tarballs.fold]);
    const packages = installed(dir);
    expect(packages.map((p) => path.relative(path.join(dir, 'node_modules'), p)).sort()).toEqual([
      '@clearance/fold',
      '@noble/curves',
      '@noble/hashes',
      'canonicalize',
      'fp-ts',
      'io-ts',
    ]);
    const bytes = bytesUnder(path.join(dir, 'node_modules'));
    console.log(`@clearance/fold alone: ${packages.length} packages, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
    expect(bytes).toBeLessThan(20 * 1024 * 1024);
    // the goal: 10 MB
    expect(bytes).toBeLessThan(10 * 1024 * 1024);
    expect(installScripts(packages)).toEqual([]);

    const decided = await runExample(dir, 'decider', '## The decider', ['@clearance/fold']);
    expect([decided.code, decided.stdout.trim(), decided.stderr]).toEqual([0, 'open', '']);
    const program = await runExample(dir, 'status-of-log', "## A run's log in a browser", [
      '@clearance/fold',
    ]);
    expect(program.code).toBe(0);

    // the testing entry, which needs two optional peers, says which, not Node's bare "Cannot find package"
    const entry = (specifier: string) =>
      exec(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(specifier)})`], {
        cwd: dir,
      }).then(
        () => '',
        (e: { stderr: string }) => e.stderr,
      );
    expect(await entry('@clearance/fold/testing')).toContain(
      '@clearance/fold/testing needs fast-check and zod, which are not installed: npm install --save-dev fast-check zod',
    );

    // with the peers the other examples say to install
    await npm(['install', '--prefer-offline', pinned('zod'), pinned('fast-check')], dir);
    const withPeers = ['@clearance/fold', 'zod', 'fast-check'];
    const untrusted = await runExample(dir, 'untrusted', '### Untrusted input', withPeers);
    expect([untrusted.code, untrusted.stdout]).toEqual([0, '']);
    expect(untrusted.stderr).toMatch(/^invalid-path .*\.\.\/etc\/passwd/);
    const property = await runExample(
      dir,
      'property',
      '## Property testing with `@clearance/fold/testing`',
      withPeers,
    );
    expect([property.code, property.stderr]).toEqual([0, '']);
    const spec = await runExample(dir, 'specification', '## Specifications of the rules', withPeers);
    expect([spec.code, spec.stdout.trim()]).toEqual([0, "[ 'wrong-input' ]"]);
  }, 180_000);
});

describe('clearance installed, as a user would', () => {
  it('compiles nothing: no install script and no native addon anywhere in what it brings', async () => {
    const tarballs = await packed();
    const dir = await project([tarballs.fold, tarballs.clearance]);
    const packages = installed(dir);
    expect(packages.length).toBeGreaterThan(10);
    expect(installScripts(packages).map((p) => path.relative(dir, p))).toEqual([]);
    // ssh2 (whose optional addon compiles) is an optional peer, not installed with it
    expect(packages.some((p) => p.endsWith(`${path.sep}ssh2`))).toBe(false);
    const version = await exec(process.execPath, [
      path.join(dir, 'node_modules/clearance/dist/cli.js'),
      '--version',
    ]);
    expect(version.stdout.trim()).toBe('0.1.0');
    // the library's own modules take the fold from its package, not from a copy
    const index = readFileSync(path.join(dir, 'node_modules/clearance/lib/index.js'), 'utf8');
    expect(index).toContain("from '@clearance/fold'");
    expect(existsSync(path.join(dir, 'node_modules/clearance/lib/events'))).toBe(false);
  }, 180_000);
});
