import { type FSWatcher, watch } from 'node:fs';

/**
 * How a wait sleeps between two looks at the report file: a timer, cut short by a change to the
 * file (a watch of its directory) or by an abort. Polling is the guarantee; the watch only makes
 * the common case fast, so a missed, coalesced or unsupported watch event costs at most one poll
 * interval.
 */
export type Wake = Readonly<{
  /** resolves after `ms`, or sooner on a change to the file or an abort; never rejects */
  sleep: (ms: number) => Promise<void>;
  /** close the watch, clear the timer, drop the abort listener: nothing keeps the process alive */
  close: () => void;
}>;

/** Something that calls `nudge` when the report may have changed; returns how to stop. */
export type Notifier = (nudge: () => void) => () => void;

/**
 * A directory watch as a notifier. The directory, not the file: a producer renames a new file over
 * the path, and a watch on the old inode would never hear of it. A platform that gives no filename
 * wakes us anyway. The directory missing, or a platform that refuses the watch, leaves polling.
 */
export const watchDirectory =
  (dir: string, basename: string): Notifier =>
  (nudge) => {
    let watcher: FSWatcher | undefined;
    const stop = (): void => {
      watcher?.close();
      watcher = undefined;
    };
    try {
      watcher = watch(dir, (_event, filename) => {
        if (filename === null || filename === basename) nudge();
      });
      // An error after the start (the directory removed, inotify limits) leaves polling alone.
      watcher.on('error', stop);
    } catch {
      watcher = undefined;
    }
    return stop;
  };

/** A wake driven by any notifier (a directory watch, a database notification), or by the timer alone. */
export const openWakeOn = (notifier: Notifier | null, signal: AbortSignal | undefined): Wake => {
  // A change that arrives while the wait is reading (not sleeping) must not be lost: it is latched
  // and the next sleep returns at once, so the report is read again.
  let pending = false;
  let wakeSleeper: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;

  const nudge = (): void => {
    if (wakeSleeper === undefined) {
      pending = true;
      return;
    }
    const wake = wakeSleeper;
    wakeSleeper = undefined;
    wake();
  };

  const stopWatching = notifier === null ? () => undefined : notifier(nudge);
  signal?.addEventListener('abort', nudge);

  const sleep = (ms: number): Promise<void> => {
    if (pending) {
      pending = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      wakeSleeper = () => {
        clearTimeout(timer);
        timer = undefined;
        resolve();
      };
      timer = setTimeout(() => {
        timer = undefined;
        wakeSleeper = undefined;
        resolve();
      }, ms);
    });
  };

  const close = (): void => {
    stopWatching();
    signal?.removeEventListener('abort', nudge);
    if (wakeSleeper !== undefined) nudge();
    clearTimeout(timer);
    timer = undefined;
  };

  return { sleep, close };
};
