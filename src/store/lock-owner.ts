import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, writeSync } from 'node:fs';
import os from 'node:os';

/**
 * Who holds a run's lock, recorded in the lock directory (`<log>.lock/owner`) by the holder right
 * after it takes the lock, so a waiter can tell a dead holder from a slow one:
 *
 * - `host` and `boot`: a holder is judged by pid only on its own host, and only during the boot it
 *   was recorded in (Linux `boot_id`; null elsewhere);
 * - `pid` and `start`: the process start time in clock ticks since boot (`/proc/<pid>/stat`, field
 *   22) tells a reused pid apart; null where `/proc` is not there, and then a live pid is trusted;
 * - `token`: a random nonce naming this one holding, so a takeover can check that the directory it
 *   moved aside is the one it judged.
 */
export type LockOwner = Readonly<{
  pid: number;
  host: string;
  boot: string | null;
  start: string | null;
  token: string;
}>;

/** What a waiter concludes about a lock's holder. */
export type HolderVerdict =
  /** the holder's process is gone from this host (or this boot): take the lock over now */
  | 'dead'
  /** a live process on this host: never taken over, however long it is paused */
  | 'alive'
  /** another host, or no readable record: taken over only once the lock is older than the stale period */
  | 'unknown';

const readText = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/** Field 22 of `/proc/<pid>/stat` (start time); the command name (field 2) may hold spaces and parentheses. */
export const processStart = (pid: number): string | null => {
  const stat = readText(`/proc/${pid}/stat`);
  if (stat === null) return null;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[19] ?? null;
};

let self: Omit<LockOwner, 'token'> | null = null;

/** This process, as a holder records itself (computed once per process). */
const selfOwner = (): Omit<LockOwner, 'token'> => {
  if (self === null) {
    self = {
      pid: process.pid,
      host: os.hostname(),
      boot: readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
      start: processStart(process.pid),
    };
  }
  return self;
};

export const newOwner = (): LockOwner => ({ ...selfOwner(), token: randomBytes(8).toString('hex') });

export const ownerFile = (lock: string): string => `${lock}/owner`;

/**
 * Record the holder in a lock directory it has just created. O_EXCL: a new file in a new
 * directory, never a planted one, and never through a symlink.
 */
export const writeOwner = (lock: string, owner: LockOwner): void => {
  const fd = openSync(
    ownerFile(lock),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
};

/** The record in a lock directory, or null when there is none (not yet written, or an older holder). */
export const readOwner = (lock: string): LockOwner | null => {
  const text = readText(ownerFile(lock));
  if (text === null) return null;
  try {
    const v = JSON.parse(text) as Partial<LockOwner>;
    return Number.isInteger(v.pid) &&
      typeof v.host === 'string' &&
      typeof v.token === 'string' &&
      (v.boot === null || typeof v.boot === 'string') &&
      (v.start === null || typeof v.start === 'string')
      ? (v as LockOwner)
      : null;
  } catch {
    return null;
  }
};

const pidExists = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, it is only someone else's
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Judge a recorded holder from this host's point of view. */
export const judgeHolder = (owner: LockOwner | null): HolderVerdict => {
  if (owner === null) return 'unknown';
  const me = selfOwner();
  if (owner.host !== me.host) return 'unknown';
  if (owner.boot !== null && me.boot !== null && owner.boot !== me.boot) return 'dead';
  if (owner.pid === me.pid) return owner.start === me.start ? 'alive' : 'dead';
  if (!pidExists(owner.pid)) return 'dead';
  // the pid is taken: by the holder, unless its start time says it is another process
  if (owner.start !== null) {
    const start = processStart(owner.pid);
    if (start !== null && start !== owner.start) return 'dead';
  }
  return 'alive';
};
