import { execFileSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chunkRequires, loadedWith } from '../support/bundle-graph.js';
import { CLI } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

// dist/cli.js loads the program's first chunk (named in the launcher by the bundler) and each
// chunk loads the chunks it requires at once; a dynamic import loads only when it runs. What a
// command's start-up loads is that graph from the program chunk, the command's own chunk and the
// file store's.

const chunks = path.join(path.dirname(CLI), 'chunks');

/** The chunk the launcher starts: the bundler writes its name into dist/cli.js. */
const programEntry = async (): Promise<string> => {
  const launcher = await readFile(CLI, 'utf8');
  const main = /\bmain:"(chunks\/main-[A-Z0-9]+\.js)"/.exec(launcher)?.[1];
  expect(main, 'the launcher names its first chunk').toBeDefined();
  return path.join(path.dirname(CLI), main as string);
};

/** The chunk esbuild made from one source module: by its name's prefix and a name it exports. */
const chunkOf = async (prefix: string, exported: string): Promise<string> => {
  const says = new RegExp(`__export\\(\\w+,\\{[^}]*\\b${exported}:`);
  const named = (await readdir(chunks)).filter((f) => f.startsWith(prefix));
  const sources = await Promise.all(named.map((f) => readFile(path.join(chunks, f), 'utf8')));
  const found = named.filter((_, i) => says.test(sources[i] as string));
  expect(found, prefix).toHaveLength(1);
  return path.join(chunks, found[0] as string);
};

/** What every command's start-up loads: the program's entry chunk and what it requires at once. */
const programStart = async (): Promise<string[]> => [await programEntry()];

const holding = async (pattern: RegExp, ...entries: ReadonlyArray<string>): Promise<string[]> =>
  [...(await loadedWith(...entries))].filter(([, source]) => pattern.test(source)).map(([file]) => file);
const holdsZod = (...entries: ReadonlyArray<string>) => holding(/\bZodError\b/, ...entries);

describe('the bundled CLI', () => {
  it('is a launcher that requires no chunk itself, and every chunk is a classic script with no import left', async () => {
    const launcher = await readFile(CLI, 'utf8');
    expect(launcher.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(chunkRequires(launcher).now).toEqual([]);
    expect(await readFile(path.join(path.dirname(CLI), 'package.json'), 'utf8')).toMatch(
      /"type":\s*"commonjs"/,
    );
    for (const file of await readdir(chunks)) {
      const source = await readFile(path.join(chunks, file), 'utf8');
      // a classic script compiled by vm.Script can neither import() nor read import.meta
      expect(
        /\bimport\s*\(\s*["'`]|\bimport\.meta\b|^\s*(?:import|export)\s*[{*"']/m.test(source),
        file,
      ).toBe(false);
    }
  });

  it("holds fp-ts and io-ts as their ES module builds only, the fold's #either too (the CommonJS lib costs every start)", async () => {
    for (const file of await readdir(chunks)) {
      const source = await readFile(path.join(chunks, file), 'utf8');
      // esbuild names each CommonJS module it wraps by its path
      expect(source.match(/node_modules\/(fp-ts|io-ts)\/lib\/[\w./-]*/g) ?? [], file).toEqual([]);
    }
  });

  it('loads the MCP SDK only through the mcp command', async () => {
    const startUp = await loadedWith(...(await programStart()));
    expect(startUp.size).toBeGreaterThan(2);
    for (const [file, source] of startUp)
      expect(/\bStreamableHTTPServerTransport\b|\bboundedStdio\b/.test(source), file).toBe(false);
    const main = await readFile(await programEntry(), 'utf8');
    expect(
      chunkRequires(main).later.filter((c) => c.includes('/serve-') || c.startsWith('./serve-')),
    ).toHaveLength(1);
    const serve = (await readdir(chunks)).filter((c) => c.startsWith('serve-'));
    expect(serve).toHaveLength(1);
    const loaded = await loadedWith(path.join(chunks, serve[0] as string));
    expect([...loaded.values()].some((source) => /\bStreamableHTTPServerTransport\b/.test(source))).toBe(
      true,
    );
  });
});

describe('what a command loads', () => {
  it('--version loads the program and no command, nor jsonc-parser, zod, io-ts or the store', async () => {
    const loaded = await loadedWith(...(await programStart()));
    const names = [...loaded.keys()].map((f) => path.basename(f));
    expect(names.filter((n) => !n.startsWith('chunk-') && !n.startsWith('main-'))).toEqual([]);
    for (const [file, source] of loaded) {
      expect(/\bZodError\b/.test(source), file).toBe(false);
      expect(/\bcreateScanner\b/.test(source), `${file}: jsonc-parser`).toBe(false);
      expect(/\bValidationError\b|\bRefinementType\b/.test(source), `${file}: io-ts`).toBe(false);
    }
  });

  it('status, findings, explain and the other read commands never load zod: folding a log needs no report schema', async () => {
    const loaded = await loadedWith(
      ...(await programStart()),
      await chunkOf('store-', 'fileStore'),
      await chunkOf('read-commands-', 'registerStatus'),
    );
    expect(loaded.size).toBeGreaterThan(6);
    for (const [file, source] of loaded) expect(/\bZodError\b/.test(source), file).toBe(false);
  });

  it('capture, verify, export and the other write commands that parse no report or policy never load zod', async () => {
    const start = [...(await programStart()), await chunkOf('store-', 'fileStore')];
    for (const [prefix, register] of [
      ['capture-', 'registerCapture'],
      ['verify-', 'registerVerify'],
      ['transfer-', 'registerExport'],
      ['extend-', 'registerExtend'],
      ['rule-', 'registerRule'],
      ['stage-', 'registerStage'],
      // --check alone; --from loads the parser of gh's JSON on demand
      ['checks-', 'registerChecks'],
    ] as const)
      expect(await holdsZod(...start, await chunkOf(prefix, register)), prefix).toEqual([]);
    // and the check can fail: the command that parses reports does load zod
    expect(await holdsZod(...start, await chunkOf('record-', 'registerRecord'))).not.toEqual([]);
  });
});

/** Node's own modules a real start of the CLI with `args` loaded, as Node lists them at exit. */
const nodeModulesLoaded = async (args: ReadonlyArray<string>): Promise<string[]> => {
  const dir = await tempDir();
  const preload = path.join(dir, 'loaded.cjs');
  const list = path.join(dir, 'loaded.json');
  await writeFile(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));\n`,
  );
  execFileSync(process.execPath, ['--require', preload, CLI, ...args], {
    env: { ...process.env, XDG_CACHE_HOME: dir },
    stdio: 'ignore',
  });
  return (JSON.parse(await readFile(list, 'utf8')) as string[])
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
};

describe("Node's own modules at start-up", () => {
  it('--version loads neither child_process, crypto nor fs/promises; status --dir no child_process', async () => {
    const store = await tempDir();
    const version = await nodeModulesLoaded(['--version']);
    expect(version).toContain('vm'); // the list is real: the launcher compiles through node:vm
    for (const m of ['child_process', 'crypto', 'fs/promises', 'net']) expect(version, m).not.toContain(m);
    const status = await nodeModulesLoaded(['--dir', store, 'status']);
    expect(status).toContain('crypto'); // hashing a log's lines is what status does
    for (const m of ['child_process', 'net']) expect(status, m).not.toContain(m);
  });
});
