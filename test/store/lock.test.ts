import { link, readdir, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClearanceError, roundRecorded } from '../../src/index.js';
import { append } from '../../src/store/index.js';
import { pauseForRelease } from '../../src/store/lock-wait.js';
import { holdLock, kill } from '../support/holder.js';
import { by, bytesOf, round2Fixing, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

describe('the run lock', () => {
  it('a live holder makes an append give up with lock-timeout, writing nothing', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const before = await bytesOf(paths.log);
    const holder = await holdLock(paths.log);
    try {
      const error = await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by, timeoutMs: 150 }).catch(
        (e: unknown) => e,
      );
      expect(isClearanceError(error) && error.code).toBe('lock-timeout');
      expect(String((error as Error).message)).toMatch(
        /could not take the lock .*run-1\.jsonl\.lock within 150 ms/,
      );
      expect(await bytesOf(paths.log)).toEqual(before);
    } finally {
      await kill(holder);
    }
  });

  it('a lock left by a killed holder is taken over once stale', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await kill(await holdLock(paths.log));
    expect((await stat(paths.lock)).isDirectory()).toBe(true);
    // the holder is dead, so nothing refreshes the lock: make it as old as it would be after the stale period
    const past = new Date(Date.now() - 60_000);
    await utimes(paths.lock, past, past);
    const result = await append(dir, 'run-1', [roundRecorded(round2Fixing())], { by, timeoutMs: 2_000 });
    expect(result.folded.state.status).toBe('converged');
    expect(await readdir(paths.runs)).not.toContain('run-1.jsonl.lock');
  });

  it('a waiter is woken by the release of the lock it found, not by its timer', async () => {
    const dir = await tempDir();
    const owner = path.join(dir, 'owner');
    const lock = path.join(dir, 'run.jsonl.lock');
    await writeFile(owner, 'a holder');
    await link(owner, lock);
    // a timer far past this test's own timeout: only the release can end the pause in time
    const woken = pauseForRelease(lock, 3_600_000);
    await unlink(lock);
    await woken;
    expect(await readdir(dir)).toEqual(['owner']);
    // a lock already gone ends the pause at once
    await pauseForRelease(lock, 3_600_000);
  });
});
