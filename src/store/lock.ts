import { setTimeout as sleep } from 'node:timers/promises';
import lockfile from 'proper-lockfile';
import { ClearanceError } from '../errors.js';
import type { RunPaths } from './paths.js';

export type LockOptions = Readonly<{
  /** how long to keep trying for the lock before `lock-timeout` (default 10 s) */
  timeoutMs?: number;
  /** a lock not refreshed for this long belongs to a dead holder and is taken over (default 10 s, min 2 s) */
  staleMs?: number;
}>;

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_LOCK_STALE_MS = 10_000;

export type LockGuard = Readonly<{ assertHeld: () => void }>;

/**
 * Hold one run's inter-process lock (a `<log>.lock` directory, proper-lockfile) while `fn` runs.
 * proper-lockfile is asked once per attempt, synchronously (`lockSync`, which takes no retries):
 * the retry loop here sleeps between attempts and keeps one deadline, so the window is exactly
 * `timeoutMs`, and no retry schedule is precomputed. Taking and releasing synchronously keeps the
 * lock held for the critical section and no thread-pool round trip longer. A compromised lock (its directory removed or taken over) does not crash
 * the process: `assertHeld` throws `lock-compromised` and the append stops before writing.
 */
export const withRunLock = async <T>(
  paths: RunPaths,
  fn: (guard: LockGuard) => Promise<T>,
  options: LockOptions = {},
): Promise<T> => {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  let compromised: Error | null = null;
  let release: () => void;
  for (let backoff = 2; ; backoff = Math.min(backoff * 2, 50)) {
    try {
      release = lockfile.lockSync(paths.log, {
        realpath: false,
        lockfilePath: paths.lock,
        stale: options.staleMs ?? DEFAULT_LOCK_STALE_MS,
        onCompromised: (err) => {
          compromised = err;
        },
      });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e;
      const remaining = deadline - performance.now();
      if (remaining <= 0) {
        throw new ClearanceError(
          'lock-timeout',
          `could not take the lock ${paths.lock} within ${timeoutMs} ms: another clearance process is appending to this run (or died holding it; a lock is taken over once stale)`,
          { lock: paths.lock, timeoutMs },
        );
      }
      // jittered so racing appenders do not retry in lockstep
      await sleep(Math.min(remaining, backoff * (0.5 + Math.random())));
    }
  }
  const guard: LockGuard = {
    assertHeld: () => {
      if (compromised !== null) {
        throw new ClearanceError(
          'lock-compromised',
          `the lock ${paths.lock} was lost while appending (${(compromised as Error).message}); nothing was written`,
          {
            lock: paths.lock,
          },
        );
      }
    },
  };
  try {
    return await fn(guard);
  } finally {
    try {
      release();
    } catch {
      // already released or taken over (compromised): nothing of ours to remove
    }
  }
};
