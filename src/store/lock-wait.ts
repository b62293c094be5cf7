import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

/** A waiter's pause between two tries for a lock. */
export type LockWait = Readonly<{
  /** resolves after `ms`, or sooner when the lock's name changes (its holder released it) */
  pause: (ms: number) => Promise<void>;
  close: () => void;
}>;

/**
 * Pauses woken by a watch on the lock's directory (inotify on Linux), so a waiter tries again the
 * moment a holder releases rather than at its next timer: a lock is held for well under a
 * millisecond, and waiters that oversleep leave it idle. Without a watch (none here, or no inotify
 * instance left), the pauses are the timers alone, as they would be anyway for a release that
 * happened before the watch was set up.
 */
export const lockWait = (lock: string): LockWait => {
  const name = path.basename(lock);
  let wake: (() => void) | null = null;
  let watcher: FSWatcher | null = null;
  try {
    watcher = watch(path.dirname(lock), { persistent: false }, (_, file) => {
      if (file === name) wake?.();
    });
    watcher.on('error', () => {
      watcher?.close();
      watcher = null;
    });
  } catch {
    watcher = null;
  }
  return {
    pause: (ms) =>
      new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          wake = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        wake = done;
      }),
    close: () => {
      watcher?.close();
      watcher = null;
    },
  };
};
