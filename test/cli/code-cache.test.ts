import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chunkLoader, codeCacheDir, KEPT_BUILDS } from '../../src/cli/code-cache.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const nodeRequire = createRequire(import.meta.url);
const build = '0123456789abcdef';

/** Two chunks as the bundler writes them: `main` requires `answer` and a Node module. */
const chunks = async (answer = 42): Promise<{ dir: string; main: string; answer: string }> => {
  const dir = await tempDir();
  const main = path.join(dir, 'main-AAAA.js');
  const other = path.join(dir, 'answer-BBBB.js');
  writeFileSync(
    main,
    'var import_answer=require("./answer-BBBB.js"),import_node_path=require("node:path");module.exports={value:()=>import_answer.answer()+import_node_path.sep.length-1};\n',
  );
  writeFileSync(other, `module.exports={answer:()=>${answer}};\n`);
  return { dir, main, answer: other };
};

const cacheFiles = (dir: string): string[] => readdirSync(dir).filter((f) => f.endsWith('.v8'));

// V8 keeps what it compiled in memory for the rest of a process, and a second compile of the same
// source there never reads the cached data at all: each start is its own process, as the CLI's are.
const LIB = fileURLToPath(new URL('../../lib/cli/code-cache.js', import.meta.url));
const START = `
import { createRequire } from 'node:module';
const { chunkLoader } = await import(process.argv[1]);
const [, , cache, main] = process.argv;
const loader = chunkLoader(cache === '' ? undefined : cache, createRequire(main));
const value = loader.load(main).value();
loader.save();
process.stdout.write(JSON.stringify({ value, cache: loader.loads().map((l) => l.cache) }));
`;
const start = (cache: string | undefined, main: string): { value: number; cache: string[] } =>
  JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', START, LIB, cache ?? '', main], {
      encoding: 'utf8',
    }),
  ) as { value: number; cache: string[] };

describe('the code cache directory', () => {
  it('lives in the user cache directory, one per build and Node, created for this user alone', async () => {
    const home = await tempDir();
    const dir = codeCacheDir({ XDG_CACHE_HOME: home }, build);
    expect(dir).toBe(
      path.join(home, 'clearance', 'code-cache', `${build}-${process.version}-${process.arch}`),
    );
    expect(statSync(dir as string).mode & 0o777).toBe(0o700);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE=1, where it cannot be created, or inside the working tree', async () => {
    const home = await tempDir();
    const file = path.join(home, 'not-a-directory');
    writeFileSync(file, '');
    const inTree = path.join(process.cwd(), 'cache-in-tree');
    expect(codeCacheDir({ XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' }, build)).toBeUndefined();
    expect(existsSync(path.join(home, 'clearance'))).toBe(false);
    expect(codeCacheDir({ XDG_CACHE_HOME: file }, build)).toBeUndefined();
    expect(codeCacheDir({ XDG_CACHE_HOME: inTree }, build)).toBeUndefined();
    expect(existsSync(inTree)).toBe(false);
  });

  it('keeps the newest builds only, and nothing else under it is touched', async () => {
    const home = await tempDir();
    const base = path.join(home, 'clearance', 'code-cache');
    const old = Array.from(
      { length: KEPT_BUILDS + 2 },
      (_, i) => `${String(i).padStart(16, 'a')}-v20.0.0-x64`,
    );
    for (const [i, name] of old.entries()) {
      mkdirSync(path.join(base, name), { recursive: true });
      const when = new Date(Date.now() - (old.length - i) * 60_000);
      utimesSync(path.join(base, name), when, when);
    }
    mkdirSync(path.join(base, 'notes'));
    const dir = codeCacheDir({ XDG_CACHE_HOME: home }, build);
    const left = readdirSync(base).sort();
    expect(left).toEqual([...old.slice(-(KEPT_BUILDS - 1)), path.basename(dir as string), 'notes'].sort());
    // an existing directory prunes nothing
    mkdirSync(path.join(base, old[0] as string));
    codeCacheDir({ XDG_CACHE_HOME: home }, build);
    expect(readdirSync(base)).toContain(old[0]);
  });

  it('is never read from a directory another user owns (run as root: the directory is given away)', async () => {
    const home = await tempDir();
    const base = path.join(home, 'clearance', 'code-cache');
    mkdirSync(base, { recursive: true });
    const root = process.getuid?.() === 0;
    if (root) chownSync(base, 65534, 65534);
    const dir = codeCacheDir({ XDG_CACHE_HOME: home }, build);
    expect(dir === undefined).toBe(root);
  });

  it('is never read from a directory others may write to', async () => {
    const home = await tempDir();
    const dir = codeCacheDir({ XDG_CACHE_HOME: home }, build) as string;
    expect(dir).toBeDefined();
    chmodSync(dir, 0o777);
    expect(codeCacheDir({ XDG_CACHE_HOME: home }, build)).toBeUndefined();
    chmodSync(dir, 0o700);
    chmodSync(path.dirname(dir), 0o770);
    expect(codeCacheDir({ XDG_CACHE_HOME: home }, build)).toBeUndefined();
    chmodSync(path.dirname(dir), 0o755);
    expect(codeCacheDir({ XDG_CACHE_HOME: home }, build)).toBe(dir);
  });
});

describe('loading chunks through the code cache', () => {
  it('compiles a chunk from source and caches it, and the next start uses the cache', async () => {
    const { main } = await chunks();
    const cache = await tempDir();
    const first = chunkLoader(cache, nodeRequire);
    expect((first.load(main).value as () => number)()).toBe(42);
    expect(first.loads().map((l) => l.cache)).toEqual(['absent', 'absent']);
    // a chunk is run once per process, whoever requires it again
    expect(first.load(main)).toBe(first.load(main));
    expect(cacheFiles(cache)).toEqual([]);
    first.save();
    expect(cacheFiles(cache)).toHaveLength(2);
    for (const f of cacheFiles(cache)) expect(statSync(path.join(cache, f)).mode & 0o777).toBe(0o600);
    expect(start(cache, main)).toEqual({ value: 42, cache: ['used', 'used'] });
  });

  it('never runs the cached code of a chunk that changed, even at the same length', async () => {
    const { main, answer } = await chunks(42);
    const cache = await tempDir();
    expect(start(cache, main)).toEqual({ value: 42, cache: ['absent', 'absent'] });
    // the same length, other code: V8 alone would take the old cache for it
    writeFileSync(answer, 'module.exports={answer:()=>17};\n');
    const later = new Date(Date.now() + 5000);
    utimesSync(answer, later, later);
    expect(start(cache, main)).toEqual({ value: 17, cache: ['used', 'absent'] });
    expect(start(cache, main)).toEqual({ value: 17, cache: ['used', 'used'] });
  });

  it('a damaged cache is refused by V8, the chunk compiles from source, and the cache is written again', async () => {
    const { main } = await chunks();
    const cache = await tempDir();
    start(cache, main);
    for (const f of cacheFiles(cache)) writeFileSync(path.join(cache, f), Buffer.alloc(4096, 7));
    expect(start(cache, main)).toEqual({ value: 42, cache: ['rejected', 'rejected'] });
    expect(start(cache, main)).toEqual({ value: 42, cache: ['used', 'used'] });
  });

  it('without a cache directory, or with one it cannot write, it only compiles', async () => {
    const { main } = await chunks();
    const none = chunkLoader(undefined, nodeRequire);
    expect((none.load(main).value as () => number)()).toBe(42);
    expect(none.loads().map((l) => l.cache)).toEqual(['off', 'off']);
    none.save();
    const cache = await tempDir();
    chmodSync(cache, 0o500);
    const unwritable = chunkLoader(path.join(cache, 'gone'), nodeRequire);
    unwritable.load(main);
    expect(() => unwritable.save()).not.toThrow();
    chmodSync(cache, 0o700);
  });

  it('a stack trace names the chunk file and its own line', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'thrower-CCCC.js');
    writeFileSync(file, 'var a=1;\nmodule.exports={fail:()=>{throw new Error("here")}};\n');
    const loader = chunkLoader(undefined, nodeRequire);
    const fail = loader.load(file).fail as () => void;
    expect(() => fail()).toThrow('here');
    try {
      fail();
    } catch (e) {
      expect((e as Error).stack).toContain(`${file}:2:`);
    }
  });
});

describe('the built CLI and its cache', () => {
  it('writes its cache on the first start, and starts from it with the same output', async () => {
    const home = await tempDir();
    const first = await cli(['--version'], { env: { XDG_CACHE_HOME: home }, process: true });
    const base = path.join(home, 'clearance', 'code-cache');
    const [dir] = readdirSync(base);
    expect(dir).toMatch(
      new RegExp(`^[0-9a-f]{16}-${process.version.replaceAll('.', '\\.')}-${process.arch}$`),
    );
    const written = cacheFiles(path.join(base, dir as string));
    expect(written.length).toBeGreaterThan(2);
    const again = await cli(['--version'], { env: { XDG_CACHE_HOME: home }, process: true });
    expect(again).toEqual(first);
    expect(first.code).toBe(0);
    expect(cacheFiles(path.join(base, dir as string))).toEqual(written);
    const off = await tempDir();
    await cli(['--version'], {
      env: { XDG_CACHE_HOME: off, NODE_DISABLE_COMPILE_CACHE: '1' },
      process: true,
    });
    expect(readdirSync(off)).toEqual([]);
    expect(readFileSync(path.join(base, dir as string, written[0] as string)).length).toBeGreaterThan(0);
  });

  it('a read-only home or a cache path that is a file leaves the CLI working', async () => {
    const home = await tempDir();
    const store = await tempDir();
    const file = path.join(home, 'file');
    writeFileSync(file, '');
    chmodSync(home, 0o555);
    const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    chmodSync(store, 0o777);
    for (const [i, env] of [
      { HOME: home, XDG_CACHE_HOME: '' },
      { HOME: home, XDG_CACHE_HOME: file },
    ].entries()) {
      const version = await cli(['--version'], { env, ...as });
      expect(version.code).toBe(0);
      expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
      const opened = await cli(
        ['--dir', path.join(store, 'runs'), 'open', `r${i}`, '--input-sha', 'a'.repeat(40)],
        { env, ...as },
      );
      expect(opened.stderr).toBe('');
      expect(opened.code).toBe(0);
    }
  });
});
