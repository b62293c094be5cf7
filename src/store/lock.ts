import { randomBytes } from 'node:crypto';
import { linkSync, lstatSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { ClearanceError } from '../errors.js';
import {
  decodeOwner,
  type HolderLiveness,
  judgeHolder,
  type LockOwner,
  readRecord,
  selfOwner,
} from './lock-owner.js';
import { forgetOwnerFile, type OwnerFile, ownerFileIn, removeOwnerFileOf, stamp } from './lock-owner-file.js';
import { reached } from './lock-steps.js';
import { pauseForRelease } from './lock-wait.js';
import type { RunPaths } from './paths.js';

export type LockOptions = Readonly<{
  /** how long to keep trying for the lock before `lock-timeout` (default 10 s) */
  timeoutMs?: number;
  /**
   * a lock whose holder cannot be judged (another machine or container, or no record this code
   * reads) is taken over once it is older than this (default 10 s); a dead holder in this
   * process's place is taken over at once, a live one never
   */
  staleMs?: number;
}>;

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_LOCK_STALE_MS = 10_000;

/** One holding of a run's lock. */
export type RunLock = Readonly<{
  /** Is the lock still this holding's? Asked immediately before every write. */
  held: () => boolean;
  /** Give the lock back, unless it is no longer ours (then it is someone else's to remove). */
  release: () => void;
}>;

/** What a waiter found at the lock's path. */
type Seen = Readonly<{
  /** the lock's content when it is a regular file (this code's lock), else null */
  record: string | null;
  owner: LockOwner | null;
  ino: number;
  mtimeMs: number;
  directory: boolean;
}>;

const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException).code;

/**
 * The lock as it is now, or null when there is none. A directory is the lock of a clearance
 * before this protocol (proper-lockfile's, with an `owner` file written after it): it excluded the
 * same way (both protocols create the one name exclusively), but its record is not this code's to
 * judge, so it waits out the stale period, as anything else found there does.
 */
const inspect = (lock: string): Seen | null => {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(lock);
  } catch (e) {
    if (code(e) === 'ENOENT') return null;
    throw e;
  }
  const record = stat.isFile() ? readRecord(lock) : null;
  if (stat.isFile() && record === null) return null; // removed between the two calls
  return {
    record,
    owner: record === null ? null : decodeOwner(record),
    ino: stat.ino,
    mtimeMs: stat.mtimeMs,
    directory: stat.isDirectory(),
  };
};

/** The same lock: the same inode, and (a file) the same record, so a reused inode is not mistaken for it. */
const isSameLock = (a: Seen, b: Seen): boolean =>
  a.ino === b.ino && a.record === b.record && a.directory === b.directory;

const remove = (file: string, seen: Seen): void => {
  if (seen.directory) rmSync(file, { recursive: true, force: true });
  else unlinkSync(file);
};

/** Put a lock moved aside by mistake back, never over a lock taken since (then its holder refuses to write). */
const putBack = (aside: string, moved: Seen, lock: string): void => {
  try {
    if (moved.directory) renameSync(aside, lock);
    else linkSync(aside, lock);
  } catch {
    // taken meanwhile: the holder we displaced finds its lock gone before it writes, and refuses
  }
  try {
    remove(aside, moved);
  } catch {
    // renamed back
  }
};

/**
 * Take over a lock judged free (its holder dead, or unknown and stale): move it aside to a name
 * of this attempt's own, check that what moved is the lock that was judged (a holder may have
 * released it and another taken it in between), and only then remove it; otherwise put it back.
 */
const takeOver = (paths: RunPaths, judged: Seen, dead: boolean): boolean => {
  const { lock } = paths;
  const aside = `${lock}.${randomBytes(4).toString('hex')}.taken`;
  try {
    renameSync(lock, aside);
  } catch (e) {
    if (code(e) === 'ENOENT') return false; // released meanwhile: try again
    throw e;
  }
  reached('moved-aside');
  const moved = inspect(aside);
  if (moved === null) return false;
  if (isSameLock(moved, judged)) {
    remove(aside, moved);
    if (dead && judged.owner !== null) removeOwnerFileOf(paths.runs, judged.owner, judged.ino);
    return true;
  }
  putBack(aside, moved, lock);
  return false;
};

const holderText = (seen: Seen | null): string => {
  const owner = seen?.owner ?? null;
  if (owner === null) return 'another clearance process is appending to this run';
  return owner.place === selfOwner().place
    ? `process ${owner.pid} holds it`
    : `process ${owner.pid} on another machine or container holds it`;
};

const timeoutError = (paths: RunPaths, timeoutMs: number, seen: Seen | null): ClearanceError =>
  new ClearanceError(
    'lock-timeout',
    `could not take the lock ${paths.lock} within ${timeoutMs} ms: ${holderText(seen)} (a dead holder on this machine is taken over at once; retry, or raise --lock-timeout)`,
    { lock: paths.lock, timeoutMs, holder: seen?.owner ?? null },
  );

/**
 * Holders judged alive in the last moment, by record: many waiters see the same few holders in
 * turn, and a judgement costs a `kill(pid, 0)` and a read of `/proc/<pid>/stat`. A holder that dies
 * is judged again within `ALIVE_FOR_MS`.
 */
const recentlyAlive = new Map<string, number>();
const ALIVE_FOR_MS = 50;

const judge = (seen: Seen): HolderLiveness => {
  if (seen.owner === null || seen.record === null) return 'unknown';
  const now = performance.now();
  const at = recentlyAlive.get(seen.record);
  if (at !== undefined && now - at < ALIVE_FOR_MS) return 'alive';
  const liveness = judgeHolder(seen.owner);
  if (recentlyAlive.size > 256) recentlyAlive.clear();
  if (liveness === 'alive') recentlyAlive.set(seen.record, now);
  else recentlyAlive.delete(seen.record);
  return liveness;
};

/**
 * Take the lock with its record in one step: a hard link to this process's owner file, stamped
 * first so the lock's age starts now; null when someone holds it.
 */
const tryAcquire = (paths: RunPaths): OwnerFile | null => {
  for (let attempt = 0; ; attempt += 1) {
    const file = ownerFileIn(paths.runs);
    stamp(file);
    try {
      linkSync(file.path, paths.lock);
      return file;
    } catch (e) {
      if (code(e) === 'EEXIST') return null;
      // the owner file was swept (a day unused) while this process lived: make it again, once
      if (code(e) === 'ENOENT' && attempt === 0 && !exists(file.path)) {
        forgetOwnerFile(paths.runs);
        continue;
      }
      throw e;
    }
  }
};

const exists = (file: string): boolean => lstatSync(file, { throwIfNoEntry: false }) !== undefined;

/** Is the lock at `lock` a link to `file`? */
const isHolding = (lock: string, file: OwnerFile): boolean => {
  const stat = lstatSync(lock, { throwIfNoEntry: false });
  return stat !== undefined && stat.ino === file.ino && stat.dev === file.dev;
};

const holding = (lock: string, file: OwnerFile): RunLock => ({
  held: () => isHolding(lock, file),
  release: () => {
    if (!isHolding(lock, file)) return;
    try {
      unlinkSync(lock);
    } catch (e) {
      if (code(e) !== 'ENOENT') throw e;
    }
  },
});

/**
 * Take one run's inter-process lock: `<log>.lock`, a hard link to the holder's owner file, which
 * holds its record (`lock-owner.ts`, `lock-owner-file.ts`), made by one `link()` that fails if the
 * name exists. While someone
 * else holds it, a waiter takes it over at once when the holder is dead in this process's place,
 * after `staleMs` when the holder cannot be judged, and never when it is alive here; one deadline
 * bounds the whole wait (`lock-timeout`).
 *
 * The lock is not what keeps the log safe on its own: `append` also checks, immediately before it
 * writes, that the lock is still its own and that the log is still the size and last hash it folded.
 */
export const acquireRunLock = async (paths: RunPaths, options: LockOptions = {}): Promise<RunLock> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = options.staleMs ?? DEFAULT_LOCK_STALE_MS;
  const deadline = performance.now() + timeoutMs;
  reached('acquiring');
  // after a wait, look before trying: a waiter that finds the lock taken again (most of them, when
  // many wait) judges it without stamping its file or failing a link()
  for (let backoff = 1, waited = false; ; waited = true) {
    const found = waited ? inspect(paths.lock) : null;
    const file = found === null ? tryAcquire(paths) : null;
    if (file !== null) {
      reached('locked');
      return holding(paths.lock, file);
    }
    const seen = found ?? inspect(paths.lock);
    const liveness = seen === null ? null : judge(seen);
    const free =
      seen === null || liveness === 'dead' || (liveness === 'unknown' && seen.mtimeMs < Date.now() - staleMs);
    if (free && (seen === null || takeOver(paths, seen, liveness === 'dead')) && performance.now() < deadline)
      continue;
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw timeoutError(paths, timeoutMs, seen);
    // woken by the release; else after a jittered pause (a holder that died releases nothing)
    await pauseForRelease(paths.lock, Math.min(remaining, backoff * (0.5 + Math.random())));
    backoff = Math.min(backoff * 2, 32);
  }
};
