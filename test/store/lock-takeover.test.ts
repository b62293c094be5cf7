import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isClearanceError } from '../../src/index.js';
import { append, parseLog } from '../../src/store/index.js';
import {
  decodeOwner,
  encodeOwner,
  judgeHolder,
  type LockOwner,
  processStart,
  readOwner,
  selfOwner,
} from '../../src/store/lock-owner.js';
import { startAppender } from '../support/appender.js';
import { by, bytesOf, runAwaitingRound2 } from '../support/store.js';
import { tempDir } from '../support/tmp.js';
import { startStoppingAppender } from './stopping-appender.js';

const capture = (inputSha: string) => [
  { type: 'revision.captured' as const, data: { round: 2, inputSha, touchedFiles: [], renames: [] } },
];

const longAgo = new Date(Date.now() - 60_000);

const inputsOf = (log: Buffer): string[] =>
  parseLog(log).events.flatMap((e) => (e.type === 'revision.captured' ? [e.data.inputSha] : []));

const elsewhere = 'e15e3e4e5e6e';

/**
 * Make a held lock look as a process elsewhere (another machine or container) sees it: the same
 * file (the holder's own, rewritten in place), recording a place that is not this one, and old.
 */
const asFromElsewhere = async (lock: string, owner: LockOwner): Promise<void> => {
  await writeFile(lock, encodeOwner({ ...owner, place: elsewhere }));
  await utimes(lock, longAgo, longAgo);
};

describe('the lock owner record', () => {
  it('round-trips, and nothing else reads as one', () => {
    const me = selfOwner();
    expect(decodeOwner(encodeOwner(me))).toEqual(me);
    expect(decodeOwner(encodeOwner({ ...me, start: null }))?.start).toBeNull();
    for (const junk of ['', 'c1:', '{"pid":1}', `c2${encodeOwner(me).slice(2)}`, `${encodeOwner(me)}0`])
      expect(decodeOwner(junk)).toBeNull();
  });

  it('tells a live holder, a dead one, a reused pid and another place apart', () => {
    const me = selfOwner();
    expect(me.pid).toBe(process.pid);
    expect(judgeHolder(me)).toBe('alive');
    expect(judgeHolder(null)).toBe('unknown');
    // another machine, boot or pid namespace: its pids mean nothing here
    expect(judgeHolder({ ...me, place: elsewhere })).toBe('unknown');
    expect(judgeHolder({ ...me, pid: 2 ** 22 + 1 })).toBe('dead');
    if (process.platform === 'linux') {
      expect(me.start).toBe(processStart(process.pid));
      // the same pid started at another time: the pid was reused, the holder is gone
      expect(judgeHolder({ ...me, start: '1' })).toBe('dead');
    }
  });
});

describe('a holder paused or killed while it holds the lock (real processes)', () => {
  it('a live holder paused past the stale time is never taken over, and loses nothing when it resumes', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const go = path.join(dir, 'go');
    const holder = await startAppender(dir, 'run-1', 'from-holder', go);
    holder.child.kill('SIGSTOP');
    try {
      const owner = readOwner(paths.lock);
      expect(owner).toMatchObject({ pid: holder.child.pid, place: selfOwner().place });
      if (process.platform === 'linux') expect(owner?.start).toBe(processStart(holder.child.pid as number));
      // long past any stale period: a lock judged by its age would be taken over now
      await utimes(paths.lock, longAgo, longAgo);
      const before = await bytesOf(paths.log);
      const waiter = await append(dir, 'run-1', capture('from-waiter'), {
        by,
        staleMs: 1_000,
        timeoutMs: 1_500,
      }).catch((e: unknown) => e);
      expect(isClearanceError(waiter) && waiter.code).toBe('lock-timeout');
      expect(String((waiter as Error).message)).toContain(`process ${holder.child.pid} holds it`);
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

  it('a lock from elsewhere (another machine or container) waits out the stale period, then is taken over', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await writeFile(paths.lock, encodeOwner({ ...selfOwner(), pid: 4242, place: elsewhere }));
    const before = await bytesOf(paths.log);
    const fresh = await append(dir, 'run-1', capture('too-soon'), { by, timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(isClearanceError(fresh) && fresh.code).toBe('lock-timeout');
    expect(String((fresh as Error).message)).toContain(
      'process 4242 on another machine or container holds it',
    );
    expect(await bytesOf(paths.log)).toEqual(before);
    await utimes(paths.lock, longAgo, longAgo);
    const stale = await append(dir, 'run-1', capture('once-stale'), { by, timeoutMs: 1_500 });
    expect(stale.appended[0]?.seq).toBe(5);
    expect(readOwner(paths.lock)).toBeNull();
  });

  it('a paused holder whose lock was taken over anyway (judged stale from elsewhere) refuses with nothing written', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const go = path.join(dir, 'go');
    const holder = await startAppender(dir, 'run-1', 'from-holder', go);
    holder.child.kill('SIGSTOP');
    let acknowledged: Buffer;
    try {
      await asFromElsewhere(paths.lock, readOwner(paths.lock) as LockOwner);
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

  it.each([
    ['the waiter appended', true],
    ['the waiter wrote nothing', false],
  ])(
    'a holder stopped the instant its lock appeared, taken over after the stale period, refuses lock-compromised when it resumes (%s)',
    async (_, waiterWrites) => {
      const dir = await tempDir();
      const paths = await runAwaitingRound2(dir);
      const holder = await startStoppingAppender(dir, 'run-1', 'from-holder', 'locked');
      let acknowledged: Buffer;
      try {
        const owner = readOwner(paths.lock);
        // the record is there from the first instant: nothing about this holder is unknown here
        expect(owner).toMatchObject({ pid: holder.pid, place: selfOwner().place });
        expect(judgeHolder(owner)).toBe('alive');
        await asFromElsewhere(paths.lock, owner as LockOwner);
        const waiter = await append(dir, 'run-1', waiterWrites ? capture('from-waiter') : [], {
          by,
          staleMs: 1_000,
          timeoutMs: 3_000,
        });
        expect(waiter.appended.length).toBe(waiterWrites ? 1 : 0);
        acknowledged = await bytesOf(paths.log);
      } finally {
        holder.child.kill('SIGCONT');
      }
      expect(await holder.exited).toBe(5);
      // the log alone cannot tell (unchanged when the waiter wrote nothing): the lock is no longer its own
      expect(holder.said()).toContain('refused lock-compromised');
      expect(await bytesOf(paths.log)).toEqual(acknowledged);
      expect(inputsOf(acknowledged)).not.toContain('from-holder');
      expect(readOwner(paths.lock)).toBeNull();
    },
  );

  it.runIf(process.platform === 'linux')(
    'a lock whose recorded pid now belongs to another process (a reused pid) is taken over at once',
    async () => {
      const dir = await tempDir();
      const paths = await runAwaitingRound2(dir);
      const other = spawn('sleep', ['30'], { stdio: 'ignore' });
      try {
        // the record of a holder that had this pid once: same place, another start time
        const reused = { ...selfOwner(), pid: other.pid as number, start: '1' };
        await writeFile(paths.lock, encodeOwner(reused));
        expect(judgeHolder(reused)).toBe('dead');
        const result = await append(dir, 'run-1', capture('after-reuse'), { by, timeoutMs: 1_500 });
        expect(result.appended[0]?.seq).toBe(5);
        expect(other.exitCode).toBeNull(); // the process with that pid was left alone
      } finally {
        other.kill('SIGKILL');
      }
    },
  );

  it('a lock directory of an older clearance (proper-lockfile) excludes too, and is taken over once stale', async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await mkdir(paths.lock);
    await writeFile(path.join(paths.lock, 'owner'), JSON.stringify({ pid: process.pid, host: 'h' }));
    const before = await bytesOf(paths.log);
    const fresh = await append(dir, 'run-1', capture('too-soon'), { by, timeoutMs: 200 }).catch(
      (e: unknown) => e,
    );
    expect(isClearanceError(fresh) && fresh.code).toBe('lock-timeout');
    expect(await bytesOf(paths.log)).toEqual(before);
    await utimes(paths.lock, longAgo, longAgo);
    const stale = await append(dir, 'run-1', capture('once-stale'), { by, timeoutMs: 1_500 });
    expect(stale.appended[0]?.seq).toBe(5);
    expect(inputsOf(await readFile(paths.log)).at(-1)).toBe('once-stale');
  });

  it("a process's owner file goes when it exits, and a killed one's when the next process makes its own", async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    const owners = path.join(paths.runs, '.lock-owners');
    const mine = (await readdir(owners)).filter((name) => name.includes(`-${process.pid}-`));
    expect(mine).toHaveLength(1);
    const killed = await startStoppingAppender(dir, 'run-1', 'killed', 'folded');
    killed.child.kill('SIGKILL');
    await killed.exited;
    expect((await readdir(owners)).some((name) => name.includes(`-${killed.pid}-`))).toBe(true);
    // a lock left by the killed holder is taken over; its owner file, linked no more, is swept
    const next = await startStoppingAppender(dir, 'run-1', 'next', 'anchored');
    next.child.kill('SIGCONT');
    expect(await next.exited).toBe(0);
    expect(next.said()).toContain('appended 5');
    expect(await readdir(owners)).toEqual(mine);
  });
});
