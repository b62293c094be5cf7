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

export const openWake = (
  dir: string,
  basename: string,
  options: Readonly<{ watch: boolean; signal: AbortSignal | undefined }>,
): Wake => {
  // A change that arrives while the wait is reading (not sleeping) must not be lost: it is latched
  // and the next sleep returns at once, so the file is read again.
  let pending = false;
  let wakeSleeper: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;

  const nudge = (): void => {
    if (wakeSleeper === undefined) {
      pending = true;
      return;
    }
    const wake = wakeSleeper;
    wakeSleeper = undefined;
    wake();
  };

  const stopWatching = (): void => {
    watcher?.close();
    watcher = undefined;
  };

  if (options.watch) {
    try {
      // The directory, not the file: a producer renames a new file over the path, and a watch on
      // the old inode would never hear of it. A platform that gives no filename wakes us anyway.
      watcher = watch(dir, (_event, filename) => {
        if (filename === null || filename === basename) nudge();
      });
      // An error after the start (the directory removed, inotify limits) leaves polling alone.
      watcher.on('error', stopWatching);
    } catch {
      // The directory does not exist yet, or the platform refuses the watch: poll.
      watcher = undefined;
    }
  }
  options.signal?.addEventListener('abort', nudge);

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
    options.signal?.removeEventListener('abort', nudge);
    if (wakeSleeper !== undefined) nudge();
    clearTimeout(timer);
    timer = undefined;
  };

  return { sleep, close };
};
