import { mkdirSync, statSync } from 'node:fs';
import module from 'node:module';
import os from 'node:os';
import path from 'node:path';

// Node >= 22.1 can keep V8's compiled code for the modules loaded after this call on disk, which
// saves most of the time spent compiling the CLI on every run. Node 20 has no such cache for ES
// modules, and there this is a no-op.
export type EnableCompileCache = (dir: string) => unknown;

/** The user's own cache directory, never the reviewed repository, `undefined` when there is none. */
const cacheDir = (env: NodeJS.ProcessEnv): string | undefined => {
  const home = os.homedir();
  const base =
    env.XDG_CACHE_HOME !== undefined && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : process.platform === 'win32'
        ? env.LOCALAPPDATA
        : home === ''
          ? undefined
          : path.join(home, process.platform === 'darwin' ? 'Library/Caches' : '.cache');
  return base === undefined ? undefined : path.join(base, 'clearance', 'compile-cache');
};

/**
 * Turn the compile cache on where Node offers it. Every failure is silent: a read-only or missing
 * home, a directory another user owns (whose cached code we must not run), a cache inside the
 * working tree. `NODE_DISABLE_COMPILE_CACHE=1` turns it off, and `NODE_COMPILE_CACHE` takes precedence.
 */
export const enableCompileCache = (
  env: NodeJS.ProcessEnv,
  enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache,
): void => {
  if (enable === undefined) return;
  try {
    const dir = cacheDir(env);
    if (dir === undefined) return;
    const fromHere = path.relative(process.cwd(), dir);
    if (!fromHere.startsWith('..') && !path.isAbsolute(fromHere)) return;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.getuid !== undefined && statSync(dir).uid !== process.getuid()) return;
    enable(dir);
  } catch {
    // no cache: the CLI only starts slower
  }
};
