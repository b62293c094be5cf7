import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodeCheckpoint } from '../../src/store/checkpoint.js';
import { append, fileStore, foldRunFromStart, listRuns, parseLog } from '../../src/store/index.js';
import { APPEND_STEPS, type AppendStep } from '../../src/store/lock-steps.js';
import { sha } from '../support/builders.js';
import { fold } from '../support/decider.js';
import { by, runAwaitingRound2, stateFromCheckpoint } from '../support/store.js';
import { tempDir } from '../support/tmp.js';
import { type StoppingAppender, startStoppingAppender } from './stopping-appender.js';

const capture = (inputSha: string) => [
  { type: 'revision.captured' as const, data: { round: 2, inputSha, touchedFiles: [], renames: [] } },
];

const inputsOf = (log: Buffer): string[] =>
  parseLog(log).events.flatMap((e) => (e.type === 'revision.captured' ? [e.data.inputSha] : []));

const killed = async (appender: StoppingAppender): Promise<void> => {
  appender.child.kill('SIGKILL');
  await appender.exited;
};

/**
 * The deadline of the append after a kill: generous against the 1 s it should take, and well
 * under the default stale period (10 s), which a lock that had to be waited out would need. So
 * success says "no stale wait" without timing anything.
 */
const DEADLINE_MS = 5_000;

/** The log is intact, its checkpoint (what the next reader and appender fold from) says what the log says. */
const expectConsistent = async (dir: string, log: string, cache: string) => {
  const bytes = await readFile(log);
  const parsed = parseLog(bytes);
  expect(parsed.issue).toBeNull();
  expect(parsed.tornTail).toBeNull();
  expect(parsed.events.map((e) => e.seq)).toEqual(parsed.events.map((_, i) => i + 1));
  const checkpoint = decodeCheckpoint(await readFile(cache, 'utf8'));
  expect(checkpoint?.end.seq).toBe(parsed.events.length);
  expect(stateFromCheckpoint(dir)).toEqual(fold(parsed.events).state);
  expect((await foldRunFromStart(fileStore(dir), 'run-1')).state).toEqual(fold(parsed.events).state);
  return bytes;
};

const written = APPEND_STEPS.indexOf('written');
const killSteps = APPEND_STEPS.filter((step) => step !== 'moved-aside');

describe('a writer SIGKILLed at any step of the append protocol (real processes)', () => {
  it.each(killSteps)(
    'killed at "%s": the next append takes the lock at once, nothing acknowledged is lost',
    async (step: AppendStep) => {
      const dir = await tempDir();
      const paths = await runAwaitingRound2(dir);
      await killed(await startStoppingAppender(dir, 'run-1', 'from-killed', step));
      const result = await append(dir, 'run-1', capture('after-kill'), { by, timeoutMs: DEADLINE_MS });
      // its lines reached the log once it had written them, acknowledged or not; never half of them
      const reachedLog = APPEND_STEPS.indexOf(step) >= written;
      expect(result.appended[0]?.seq).toBe(reachedLog ? 6 : 5);
      const bytes = await expectConsistent(dir, paths.log, paths.cache);
      expect(inputsOf(bytes)).toEqual([
        sha('A'),
        sha('B'),
        ...(reachedLog ? ['from-killed'] : []),
        'after-kill',
      ]);
    },
  );

  it("a waiter killed while taking a dead holder's lock over (moved aside, not yet removed) leaves the lock free", async () => {
    const dir = await tempDir();
    const paths = await runAwaitingRound2(dir);
    await killed(await startStoppingAppender(dir, 'run-1', 'dead-holder', 'locked'));
    await killed(await startStoppingAppender(dir, 'run-1', 'dead-taker', 'moved-aside'));
    const result = await append(dir, 'run-1', capture('after-both'), { by, timeoutMs: DEADLINE_MS });
    expect(result.appended[0]?.seq).toBe(5);
    const bytes = await expectConsistent(dir, paths.log, paths.cache);
    expect(inputsOf(bytes)).toEqual([sha('A'), sha('B'), 'after-both']);
    // what it moved aside is left under a name of its own, which is no run and no lock
    expect((await readdir(paths.runs)).filter((name) => name.endsWith('.taken'))).toHaveLength(1);
    expect(await listRuns(dir)).toEqual(['run-1']);
  });
});
