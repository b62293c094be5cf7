import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { ClearanceError } from '../errors.js';
import { judgeHolder, type LockOwner, newOwner, ownerFile, readOwner, writeOwner } from './lock-owner.js';
import type { RunPaths } from './paths.js';

/**
 * proper-lockfile (and graceful-fs, which it loads and which patches `fs`) only for a command that
 * appends: reads take no lock, and `status` should not pay for loading them at start-up.
 */
let properLockfile: Promise<typeof import('proper-lockfile')> | undefined;
const lockfile = () => {
  properLockfile ??= import('proper-lockfile').then((m) => m.default);
  return properLockfile;
};

export type LockOptions = Readonly<{
  /** how long to keep trying for the lock before `lock-timeout` (default 10 s) */
  timeoutMs?: number;
  /**
   * a lock whose holder cannot be judged (another host, or no owner record) is taken over once
   * its directory is older than this (default 10 s); a dead holder on this host is taken over at
   * once, a live one never
   */
  staleMs?: number;
}>;

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_LOCK_STALE_MS = 10_000;

/**
 * proper-lockfile's fs adapter, built once per process: its mtime-precision probe (a `utimes` and a
 * `stat`) is cached on the adapter object, so a fresh adapter per call ran it on every append. The
 * methods are synchronous and call back before returning, so `lockfile.lock` does its work without
 * a thread-pool hop.
 */
const syncCallback =
  <A extends unknown[], R>(f: (...args: A) => R) =>
  (...args: [...A, (err: unknown, result?: R) => void]): void => {
    const callback = args.pop() as (err: unknown, result?: R) => void;
    let result: R;
    try {
      result = f(...(args as unknown as A));
    } catch (e) {
      callback(e);
      return;
    }
    callback(null, result);
  };

const LOCK_FS = {
  mkdir: syncCallback((p: string) => mkdirSync(p)),
  stat: syncCallback((p: string) => statSync(p)),
  rmdir: syncCallback((p: string) => rmdirSync(p)),
  utimes: syncCallback((p: string, a: Date, m: Date) => utimesSync(p, a, m)),
  realpath: syncCallback((p: string) => realpathSync(p)),
  rmdirSync,
};

/**
 * proper-lockfile's own staleness (mtime refreshed by a timer) is switched off: a timer cannot run
 * while the holder is paused or inside its synchronous critical section, so it would hand a live
 * holder's lock to a waiter. Who may take a lock over is decided here, from the owner record.
 */
const NEVER_STALE = 2 ** 40;
const NEVER_REFRESH = 2 ** 30;

/** Remove a lock directory and its owner record, if it is still there. */
const removeLockDir = (dir: string): void => {
  try {
    unlinkSync(ownerFile(dir));
  } catch {
    // no record: an older holder, or one that died before writing it
  }
  try {
    rmdirSync(dir);
  } catch {
    // already gone
  }
};

/**
 * Take over a lock judged free: move the directory aside to a name derived from the holder we
 * judged, check that what moved is that holder's lock (another waiter may have taken it over and
 * a new holder locked again meanwhile), and only then remove it. A second waiter judging the same
 * holder cannot move a newer lock onto the same name while the first still holds it aside.
 */
const takeOver = (lock: string, judged: LockOwner | null, mtimeMs: number, staleMs: number): boolean => {
  const aside = `${lock}.${judged?.token ?? `m${Math.round(mtimeMs)}`}.taken`;
  try {
    renameSync(lock, aside);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // the same holder's lock moved aside by a waiter that died before removing it: clear it once stale
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && isOlderThan(aside, staleMs)) removeLockDir(aside);
    return false; // released meanwhile, or another waiter is taking it over: try again after a pause
  }
  const moved = readOwner(aside);
  if ((moved?.token ?? null) !== (judged?.token ?? null)) {
    try {
      renameSync(aside, lock); // not the one we judged: put it back
      return false;
    } catch {
      // a new lock was taken meanwhile; the holder we displaced will refuse at its pre-write check
    }
  }
  removeLockDir(aside);
  return true;
};

const isOlderThan = (dir: string, ms: number): boolean => {
  try {
    return statSync(dir).mtimeMs < Date.now() - ms;
  } catch {
    return false;
  }
};

/** Is this holder's token still the one recorded in the lock directory? Read before releasing it. */
const stillOurs = (lock: string, owner: LockOwner): boolean => {
  let fd: number;
  try {
    fd = openSync(ownerFile(lock), constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return false;
  }
  try {
    const buffer = Buffer.alloc(512);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    return buffer.subarray(0, n).includes(owner.token);
  } finally {
    closeSync(fd);
  }
};

const timeoutError = (paths: RunPaths, timeoutMs: number, holder: LockOwner | null): ClearanceError =>
  new ClearanceError(
    'lock-timeout',
    `could not take the lock ${paths.lock} within ${timeoutMs} ms: ${
      holder === null
        ? 'another clearance process is appending to this run'
        : `process ${holder.pid} on ${holder.host} holds it`
    } (a dead holder on this host is taken over at once; retry, or raise --lock-timeout)`,
    { lock: paths.lock, timeoutMs, holder },
  );

/** One attempt: the release function, or null when the lock is held by someone else. */
const tryLock = async (paths: RunPaths): Promise<(() => Promise<void>) | null> => {
  try {
    return await (await lockfile()).lock(paths.log, {
      realpath: false,
      lockfilePath: paths.lock,
      stale: NEVER_STALE,
      update: NEVER_REFRESH,
      // biome-ignore lint/suspicious/noExplicitAny: proper-lockfile types its fs option as typeof fs
      fs: LOCK_FS as any,
      onCompromised: () => undefined,
    });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOCKED') return null;
    throw e;
  }
};

/**
 * Hold one run's inter-process lock (a `<log>.lock` directory, proper-lockfile) while `fn` runs,
 * with the holder recorded in it (`lock-owner.ts`). While it is held by someone else, a waiter
 * takes it over at once when the holder is dead on this host, after `staleMs` when the holder
 * cannot be judged, and never when it is alive here; one deadline bounds the whole wait.
 *
 * The lock is not what keeps the log safe on its own: `append` also checks, immediately before it
 * writes, that the log is still the size and last hash it folded, and writes at the end only.
 */
export const withRunLock = async <T>(
  paths: RunPaths,
  fn: () => T | Promise<T>,
  options: LockOptions = {},
): Promise<T> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const deadline = performance.now() + timeoutMs;
  let release: (() => Promise<void>) | null = null;
  for (let backoff = 2; release === null; backoff = Math.min(backoff * 2, 50)) {
    release = await tryLock(paths);
    if (release !== null) break;
    const holder = readOwner(paths.lock);
    const verdict = judgeHolder(holder);
    if (verdict === 'dead' && takeOver(paths.lock, holder, 0, staleMs)) continue;
    if (verdict === 'unknown') {
      const mtimeMs = (() => {
        try {
          return statSync(paths.lock).mtimeMs;
        } catch {
          return null; // released meanwhile
        }
      })();
      if (mtimeMs === null) continue;
      if (mtimeMs < Date.now() - staleMs && takeOver(paths.lock, holder, mtimeMs, staleMs)) continue;
    }
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw timeoutError(paths, timeoutMs, holder);
    // jittered so racing appenders do not retry in lockstep
    await sleep(Math.min(remaining, backoff * (0.5 + Math.random())));
  }
  const owner = newOwner();
  try {
    writeOwner(paths.lock, owner);
  } catch (e) {
    await release().catch(() => undefined);
    throw e;
  }
  try {
    return await fn();
  } finally {
    // taken over while we held it (judged stale from another host)? then nothing there is ours to remove
    if (stillOurs(paths.lock, owner)) {
      unlinkSync(ownerFile(paths.lock));
      await release().catch(() => undefined);
    }
  }
};
