import { createHash, randomBytes } from 'node:crypto';
import { closeSync, constants, openSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import os from 'node:os';

/**
 * Who holds a run's lock, as the lock's own content says. The lock is a hard link to a file that
 * holds this record (`lock-owner-file.ts`), written once per process before its first lock, so the
 * record appears in the same `link()` that takes the lock: no instant exists in which the lock is
 * there and its holder is not known.
 *
 * `c1:<pid>:<start>:<place>:<token>`
 *
 * - `pid` and `start`: the process and its start time in clock ticks since boot
 *   (`/proc/<pid>/stat`, field 22), which tells a reused pid apart; `-` where `/proc` is not there,
 *   and then a live pid is trusted;
 * - `place`: where that pid means something, 12 hex digits of SHA-256 over the hostname, the
 *   kernel's boot id and the pid namespace. A pid is judged only from the same place: another
 *   machine, another boot, or another container on this machine (a pid namespace of its own) is a
 *   place whose pids this process cannot see. A hostname alone does not tell machines apart
 *   (cloned VMs, containers with a fixed hostname), so a lock from any other place is never
 *   judged by pid;
 * - `token`: 64 random bits drawn by the process, so that no two records anywhere are the same.
 */
export type LockOwner = Readonly<{
  pid: number;
  start: string | null;
  place: string;
  token: string;
}>;

/** What a waiter concludes about a lock's holder: whether it is alive. */
export type HolderLiveness =
  /** the holder's process is gone from this place: take the lock over now */
  | 'dead'
  /** a live process here: never taken over, however long it is paused */
  | 'alive'
  /** another place, or no record this code can read: taken over only once older than the stale period */
  | 'unknown';

const VERSION = 'c1';

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

const pidNamespace = (): string | null => {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return null;
  }
};

/** The place of a process: its hostname, boot and pid namespace, hashed (see `LockOwner`). */
export const placeOf = (host: string, boot: string | null, pidns: string | null): string =>
  createHash('sha256')
    .update(`${host}\0${boot ?? ''}\0${pidns ?? ''}`)
    .digest('hex')
    .slice(0, 12);

let self: LockOwner | null = null;

/** This process, as its lock records it (computed once per process). */
export const selfOwner = (): LockOwner => {
  if (self === null) {
    self = {
      pid: process.pid,
      start: processStart(process.pid),
      place: placeOf(
        os.hostname(),
        readText('/proc/sys/kernel/random/boot_id')?.trim() ?? null,
        pidNamespace(),
      ),
      token: randomBytes(8).toString('hex'),
    };
  }
  return self;
};

/** The record as a lock holds it. */
export const encodeOwner = (owner: LockOwner): string =>
  `${VERSION}:${owner.pid}:${owner.start ?? '-'}:${owner.place}:${owner.token}`;

const RECORD = /^c1:([1-9][0-9]{0,9}):([0-9]{1,20}|-):([0-9a-f]{12}):([0-9a-f]{16})$/;

/** A record read back, or null when it is not one this code wrote. */
export const decodeOwner = (text: string): LockOwner | null => {
  const m = RECORD.exec(text);
  if (m === null) return null;
  const [, pid, start, place, token] = m as unknown as [string, string, string, string, string];
  return { pid: Number(pid), start: start === '-' ? null : start, place, token };
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

/** Judge a recorded holder from this process's place. */
export const judgeHolder = (owner: LockOwner | null): HolderLiveness => {
  if (owner === null) return 'unknown';
  const me = selfOwner();
  if (owner.place !== me.place) return 'unknown';
  if (owner.pid === me.pid) return owner.start === me.start ? 'alive' : 'dead';
  if (!pidExists(owner.pid)) return 'dead';
  // the pid is taken: by the holder, unless its start time says it is another process
  if (owner.start !== null) {
    const start = processStart(owner.pid);
    if (start !== null && start !== owner.start) return 'dead';
  }
  return 'alive';
};

/** Longer than any record: a lock holding more is not one this code wrote. */
const RECORD_READ = 128;

/**
 * The text of a lock that is a regular file (never through a symbolic link), or null when there
 * is none. A lock is small and written before it is linked into place, so one read has it whole.
 */
export const readRecord = (lock: string): string | null => {
  let fd: number;
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const buffer = Buffer.alloc(RECORD_READ);
    return buffer.toString('utf8', 0, readSync(fd, buffer, 0, RECORD_READ, 0));
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
};

/** The record of the lock at `lock`, or null when there is none (or it is not a record this code wrote). */
export const readOwner = (lock: string): LockOwner | null => {
  const text = readRecord(lock);
  return text === null ? null : decodeOwner(text);
};
