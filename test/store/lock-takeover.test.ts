import { spawn } from 'node:child_process';
import { mkdir, readFile, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClearanceError } from '../../src/index.js';
import { append, parseLog } from '../../src/store/index.js';
import { judgeHolder, newOwner, processStart, readOwner } from '../../src/store/lock-owner.js';
import { startAppender } from '../support/appender.js';
import { by, bytesOf, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';

const capture = (inputSha: string) => [
  { type: 'revision.captured' as const, data: { round: 2, inputSha, touchedFiles: [], renames: [] } },
];

const longAgo = new Date(Date.now() - 60_000);

const inputsOf = (log: Buffer): string[] =>
  parseLog(log).events.flatMap((e) => (e.type === 'revision.captured' ? [e.data.inputSha] : []));

describe('the lock owner record', () => {
  it('tells a live holder, a dead one, a reused pid and another host apart', () => {
    const me = newOwner();
    expect(me.pid).toBe(process.pid);
    expect(judgeHolder(me)).toBe('alive');
    expect(judgeHolder(null)).toBe('unknown');
    expect(judgeHolder({ ...me, host: `${me.host}-elsewhere` })).toBe('unknown');
    if (process.platform === 'linux') {
      expect(me.start).toBe(processStart(process.pid));
      // the same pid started at another time: the pid was reused, the holder is gone
      expect(judgeHolder({ ...me, start: '1' })).toBe('dead');
      expect(judgeHolder({ ...me, boot: 'another-boot' })).toBe('dead');
    }
  });
});

describe('a holder paused or killed inside its critical section (real processes)', () => {
  it('a live holder paused past the stale time is never taken over, and loses nothing when it resumes', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const go = path.join(dir, 'go');
    const holder = await startAppender(dir, 'run-1', 'from-holder', go);
    holder.child.kill('SIGSTOP');
    try {
      const owner = readOwner(paths.lock);
      expect(owner).toMatchObject({ pid: holder.child.pid, host: os.hostname() });
      if (process.platform === 'linux') expect(owner?.start).toBe(processStart(holder.child.pid as number));
      // long past any stale period: a timer-refreshed lock would be taken over now
      await utimes(paths.lock, longAgo, longAgo);
      const before = await bytesOf(paths.log);
      const waiter = await append(dir, 'run-1', capture('from-waiter'), {
        by,
        staleMs: 1_000,
        timeoutMs: 1_500,
      }).catch((e: unknown) => e);
      expect(isClearanceError(waiter) && waiter.code).toBe('lock-timeout');
      expect(String((waiter as Error).message)).toContain(`process ${holder.child.pid}`);
      expect(await bytesOf(paths.log)).toEqual(before);
    } finally {
      holder.child.kill('SIGCONT');
    }
    await writeFile(go, '');
    expect(await holder.exited).toBe(0);
    expect(holder.said()).toContain('appended 5');
    await append(dir, 'run-1', capture('from-waiter'), { by, timeoutMs: 1_500 });
    const log = await bytesOf(paths.log);
    expect(parseLog(log).issue).toBeNull();
    expect(inputsOf(log).slice(-2)).toEqual(['from-holder', 'from-waiter']);
  });

  it('a paused holder whose lock was taken over anyway (judged stale from another host) refuses with nothing written', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const go = path.join(dir, 'go');
    const holder = await startAppender(dir, 'run-1', 'from-holder', go);
    holder.child.kill('SIGSTOP');
    let acknowledged: Buffer;
    try {
      // as a waiter on another host sees it: a holder it cannot judge, older than the stale period
      const owner = readOwner(paths.lock);
      await writeFile(path.join(paths.lock, 'owner'), JSON.stringify({ ...owner, host: 'another-host' }));
      await utimes(paths.lock, longAgo, longAgo);
      const taken = await append(dir, 'run-1', capture('from-waiter'), {
        by,
        staleMs: 1_000,
        timeoutMs: 1_500,
      });
      expect(taken.appended[0]?.seq).toBe(5);
      acknowledged = await bytesOf(paths.log);
    } finally {
      holder.child.kill('SIGCONT');
    }
    await writeFile(go, '');
    expect(await holder.exited).toBe(5);
    expect(holder.said()).toContain('refused lock-compromised');
    const log = await bytesOf(paths.log);
    expect(log).toEqual(acknowledged);
    expect(parseLog(log).issue).toBeNull();
    expect(inputsOf(log)).toContain('from-waiter');
    expect(inputsOf(log)).not.toContain('from-holder');
  });

  it.runIf(process.platform === 'linux')(
    'a lock whose recorded pid now belongs to another process (a reused pid) is taken over at once',
    async () => {
      const dir = await tempDir();
      const paths = await runAwaitingRound2(dir);
      const other = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        await mkdir(paths.lock);
        // the record of a holder that had this pid once: same host and boot, another start time
        const reused = { ...newOwner(), pid: other.pid as number, start: '1' };
        await writeFile(path.join(paths.lock, 'owner'), JSON.stringify(reused));
        expect(judgeHolder(reused)).toBe('dead');
        const result = await append(dir, 'run-1', capture('after-reuse'), { by, timeoutMs: 1_500 });
        expect(result.appended[0]?.seq).toBe(5);
        expect(other.exitCode).toBeNull(); // the process with that pid was left alone
      } finally {
        other.kill('SIGKILL');
      }
    },
  );

  it('after a holder is SIGKILLed, the next append takes the lock at once (no stale wait)', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const holder = await startAppender(dir, 'run-1', 'from-holder', path.join(dir, 'never'));
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(readOwner(paths.lock)?.pid).toBe(holder.child.pid);
    // the default stale period is 10 s: only a takeover of the dead holder succeeds within 1.5 s
    const result = await append(dir, 'run-1', capture('after-kill'), { by, timeoutMs: 1_500 });
    expect(result.appended[0]?.seq).toBe(5);
    const log = await readFile(paths.log);
    expect(parseLog(log).issue).toBeNull();
    expect(inputsOf(log).at(-1)).toBe('after-kill');
  });
});
