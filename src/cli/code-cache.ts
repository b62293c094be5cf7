import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

// The bundled CLI is a set of classic scripts (dist/chunks/), each compiled through `vm.Script`
// with V8's code cache kept on disk, so that a later run deserialises compiled code instead of
// parsing and compiling the source again. Node's ES module loader offers no such cache before
// Node 22.1, and on every Node it resolves, reads and links each module asynchronously, which
// cost `status` more than its own work (BENCHMARKS.md, "Cold start").
//
// What the cache may be trusted with: V8 rejects cached data made by another V8 version, with
// other flags, or for a source of another length, and this module then compiles from source and
// writes a fresh cache. V8 cannot tell two sources of the same length apart, so a cache is also
// keyed by the build (a hash of every chunk, fixed when the bundle is built) and by the chunk
// file's size and modification time (a chunk edited by hand after the build), and it is read only
// from a directory of the user's own, outside the working tree.

/** Where the user's caches go, never the reviewed repository; `undefined` when there is none. */
export const userCacheDir = (env: NodeJS.ProcessEnv): string | undefined => {
  const home = os.homedir();
  const base =
    env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32'
        ? env.LOCALAPPDATA
        : home === ''
          ? undefined
          : path.join(home, process.platform === 'darwin' ? 'Library/Caches' : '.cache');
  return base === undefined ? undefined : path.join(base, 'clearance', 'code-cache');
};

/** How many builds' caches are kept: an upgrade, or a checkout rebuilt all day, leaves no more. */
export const KEPT_BUILDS = 8;

/** Remove all but the newest KEPT_BUILDS build directories under `base`, when a new one is made. */
const pruneBuilds = (base: string): void => {
  const builds = readdirSync(base, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^[0-9a-f]{16}-v[0-9.]+-\w+$/.test(e.name))
    .map((e) => {
      const dir = path.join(base, e.name);
      return { dir, mtime: statSync(dir).mtimeMs };
    })
    .sort((a, b) => b.mtime - a.mtime);
  for (const { dir } of builds.slice(KEPT_BUILDS)) rmSync(dir, { recursive: true, force: true });
};

/**
 * This build's cache directory, created for this user alone, or `undefined` where there must be
 * none: `NODE_DISABLE_COMPILE_CACHE=1`, no home, a path inside the working tree, a directory
 * another user owns or may write to (whose cached code we must not run), or any failure to create it.
 */
export const codeCacheDir = (env: NodeJS.ProcessEnv, build: string): string | undefined => {
  if (env.NODE_DISABLE_COMPILE_CACHE === '1') return undefined;
  try {
    const base = userCacheDir(env);
    if (base === undefined) return undefined;
    const fromHere = path.relative(process.cwd(), base);
    if (!fromHere.startsWith('..') && !path.isAbsolute(fromHere)) return undefined;
    // one directory per build and Node: two installed versions or two Nodes never overwrite each other
    const dir = path.join(base, `${build}-${process.version}-${process.arch}`);
    let here = statSync(dir, { throwIfNoEntry: false });
    const made = here === undefined;
    if (made) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      here = statSync(dir);
    }
    if (here === undefined || !here.isDirectory()) return undefined;
    // code another user could have written is never run: both directories ours, and ours alone to write
    const uid = process.getuid?.();
    if (uid !== undefined)
      for (const d of [here, statSync(base)]) if (d.uid !== uid || (d.mode & 0o022) !== 0) return undefined;
    if (made)
      try {
        pruneBuilds(base);
      } catch {
        // another process pruned first, or left one it could not remove: no harm either way
      }
    return dir;
  } catch {
    return undefined;
  }
};

/** What a chunk is run with: the parameters of a CommonJS module's wrapper. */
type Module = { exports: Record<string, unknown> };
type Wrapper = (exports: unknown, require: (spec: string) => unknown, module: Module) => void;

/** The outcome of one chunk's load, for the tests: whether its cache was used. */
export type ChunkLoad = Readonly<{ file: string; cache: 'used' | 'rejected' | 'absent' | 'off' }>;

export type ChunkLoader = Readonly<{
  /** Run the chunk at `file` (once; a second call returns its exports) and return its exports. */
  load: (file: string) => Record<string, unknown>;
  /** Write the code cache of every chunk that had none or whose cache V8 refused. */
  save: () => void;
  loads: () => ReadonlyArray<ChunkLoad>;
}>;

const readIfThere = (file: string): Buffer | undefined => {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
};

/**
 * Load chunks as classic scripts, with their code cache in `cacheDir` (none when `undefined`).
 * A chunk's `require` of `./other.js` loads that chunk the same way; anything else (Node's own
 * modules) goes to `nodeRequire`.
 */
export const chunkLoader = (
  cacheDir: string | undefined,
  nodeRequire: (spec: string) => unknown,
): ChunkLoader => {
  const modules = new Map<string, Module>();
  const loads: ChunkLoad[] = [];
  const unsaved: Array<{ script: vm.Script; cacheFile: string }> = [];

  const load = (file: string): Record<string, unknown> => {
    const known = modules.get(file);
    if (known !== undefined) return known.exports;
    const module: Module = { exports: {} };
    modules.set(file, module);
    const fd = openSync(file, 'r');
    let source: string;
    let stamp: string;
    try {
      const { size, mtimeMs } = fstatSync(fd);
      stamp = `${size}-${Math.trunc(mtimeMs)}`;
      source = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
    const cacheFile =
      cacheDir === undefined ? undefined : path.join(cacheDir, `${path.basename(file, '.js')}-${stamp}.v8`);
    const cachedData = cacheFile === undefined ? undefined : readIfThere(cacheFile);
    // the wrapper stands on a line of its own, and lineOffset -1 keeps stack traces on the chunk's lines
    const script = new vm.Script(`(function (exports, require, module) {\n${source}\n})`, {
      filename: file,
      lineOffset: -1,
      ...(cachedData === undefined ? {} : { cachedData }),
    });
    const cache =
      cacheFile === undefined
        ? 'off'
        : cachedData === undefined
          ? 'absent'
          : script.cachedDataRejected === true
            ? 'rejected'
            : 'used';
    loads.push({ file, cache });
    if (cacheFile !== undefined && cache !== 'used') unsaved.push({ script, cacheFile });
    const dir = path.dirname(file);
    const requireHere = (spec: string): unknown =>
      spec.startsWith('./') || spec.startsWith('../') ? load(path.resolve(dir, spec)) : nodeRequire(spec);
    (script.runInThisContext() as Wrapper)(module.exports, requireHere, module);
    return module.exports;
  };

  const save = (): void => {
    for (const { script, cacheFile } of unsaved.splice(0)) {
      // written beside and renamed into place: a reader sees a whole cache or none
      const making = `${cacheFile}.${process.pid}.tmp`;
      try {
        writeFileSync(making, script.createCachedData(), { mode: 0o600 });
        renameSync(making, cacheFile);
      } catch {
        try {
          unlinkSync(making);
        } catch {
          // nothing was written
        }
      }
    }
  };

  return { load, save, loads: () => [...loads] };
};
