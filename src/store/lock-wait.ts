import { type FSWatcher, watch } from 'node:fs';

/**
 * A waiter's pause between two tries for a lock: resolves after `ms`, or as soon as the lock it
 * found is released. The lock is a hard link to its holder's owner file, so the watch is on that
 * file (inotify on Linux): the release, an `unlink()` of the lock, changes its link count, and that
 * is the one event the watch sees, not the appends to the log beside it. A lock is held for well
 * under a millisecond; waiters that slept out a timer would leave it idle, and waiters woken by every
 * change in the runs directory would take the CPU the holder needs.
 *
 * No watch (the lock gone already, no inotify instance left, another platform): a lock already
 * released resolves at once, and otherwise the timer alone wakes the waiter, as it does for a holder
 * that dies (nothing then changes the file) so that it is judged again.
 */
export const pauseForRelease = (lock: string, ms: number): Promise<void> =>
  new Promise<void>((resolve) => {
    let watcher: FSWatcher | null = null;
    const done = (): void => {
      clearTimeout(timer);
      watcher?.close();
      watcher = null;
      resolve();
    };
    const timer = setTimeout(done, ms);
    try {
      watcher = watch(lock, { persistent: false }, done);
      watcher.on('error', done);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') done();
    }
  });
