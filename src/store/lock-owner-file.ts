import {
  closeSync,
  constants,
  fstatSync,
  futimesSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { encodeOwner, judgeHolder, type LockOwner, selfOwner } from './lock-owner.js';
import { unsafePath } from './no-follow.js';

/**
 * The file a process's locks are hard links to: `<runs>/.lock-owners/<place>-<pid>-<start>-<token>`,
 * holding the process's record (`lock-owner.ts`); the token makes the name this one copy of the
 * code's (a worker thread, or a second copy loaded in the same process, has its own). Written once per process and store, before the
 * first lock, so that taking a lock is one `link()` (no inode to allocate, no record to write
 * after) and a lock carries its record from its first instant. A process holds at most one lock
 * at a time (the append's critical section is synchronous), so the file's link count tells a held
 * lock apart, and its mtime, refreshed just before each `link()`, is the lock's age.
 *
 * Removed when the process exits; a process killed leaves its file, which the waiter that takes its
 * lock over removes, or else the next process to make its own in the same store (a dead holder in
 * this place; or, from any place, a file not linked as a lock and untouched for a day: a holder
 * that comes back recreates it).
 */
export type OwnerFile = Readonly<{ path: string; fd: number; ino: number; dev: number }>;

const DIR = '.lock-owners';
const FORGOTTEN_MS = 24 * 60 * 60 * 1000;

const files = new Map<string, OwnerFile>();
let cleanupRegistered = false;

const nameOf = (owner: LockOwner): string =>
  `${owner.place}-${owner.pid}-${owner.start ?? 'x'}-${owner.token}`;

const NAME = /^([0-9a-f]{12})-([1-9][0-9]{0,9})-([0-9]{1,20}|x)-([0-9a-f]{16})$/;

/** Remove the files of processes that are gone, never one linked as a lock now. */
const sweep = (dir: string, own: string): void => {
  const me = selfOwner();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = NAME.exec(name);
    if (m === null || name === own) continue;
    const file = path.join(dir, name);
    try {
      const stat = lstatSync(file);
      if (!stat.isFile() || stat.nlink > 1) continue;
      const [, place, pid, start] = m as unknown as [string, string, string, string];
      const owner = { pid: Number(pid), start: start === 'x' ? null : start, place, token: '' };
      const gone =
        place === me.place ? judgeHolder(owner) === 'dead' : stat.mtimeMs < Date.now() - FORGOTTEN_MS;
      if (gone) unlinkSync(file);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
};

const removeOnExit = (): void => {
  if (cleanupRegistered) return;
  cleanupRegistered = true;
  process.once('exit', () => {
    for (const file of files.values()) {
      try {
        const stat = lstatSync(file.path);
        if (stat.ino === file.ino && stat.dev === file.dev) unlinkSync(file.path);
      } catch {
        // already gone
      }
    }
  });
};

const create = (runs: string): OwnerFile => {
  const dir = path.join(runs, DIR);
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (!lstatSync(dir).isDirectory()) throw unsafePath(dir);
  const name = nameOf(selfOwner());
  const file = path.join(dir, name);
  const fd = openSync(
    file,
    constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  writeSync(fd, encodeOwner(selfOwner()));
  const stat = fstatSync(fd);
  const made = { path: file, fd, ino: stat.ino, dev: stat.dev };
  files.set(runs, made);
  removeOnExit();
  sweep(dir, name);
  return made;
};

/** This process's owner file in the store whose runs directory is `runs`, made on first use. */
export const ownerFileIn = (runs: string): OwnerFile => files.get(runs) ?? create(runs);

/** Forget a file removed under us (swept after a day unused): the next `ownerFileIn` makes it again. */
export const forgetOwnerFile = (runs: string): void => {
  const file = files.get(runs);
  if (file === undefined) return;
  files.delete(runs);
  closeSync(file.fd);
};

/** Stamp the file with the time of the lock about to be taken (its age is the lock's age). */
export const stamp = (file: OwnerFile): void => {
  const now = new Date();
  futimesSync(file.fd, now, now);
};

/** Remove the owner file of a dead holder whose lock was just taken over (the same inode as its lock). */
export const removeOwnerFileOf = (runs: string, owner: LockOwner, ino: number): void => {
  const file = path.join(runs, DIR, nameOf(owner));
  try {
    if (lstatSync(file).ino === ino) unlinkSync(file);
  } catch {
    // gone already
  }
};
