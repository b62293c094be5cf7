import { execFile } from 'node:child_process';
import { readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { candidate, decision, report, sha } from '../support/builders.js';
import { CLI, cli, spawnCli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const major = candidate();
const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as { code: string; message: string };

/** A store whose run-1 has round 1 recorded and round 2 captured (input B, touching the major's file). */
const atRound2 = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const r1 = path.join(dir, 'r1.json');
  await writeFile(r1, JSON.stringify(report(1, 'A', { candidates: [major] })));
  await run('open', 'run-1', '--input-sha', sha('A'));
  await run('record', 'run-1', '--report', r1);
  await run('capture', 'run-1', '--input-sha', sha('B'), '--touched', major.file);
  const publish = async (value: unknown, at = path.join(dir, 'inbox', 'round.json')) => {
    const draft = path.join(dir, `draft-${Math.random().toString(16).slice(2)}.json`);
    await writeFile(draft, JSON.stringify(value));
    return run('publish', at, '--report', draft, '--json');
  };
  await import('node:fs/promises').then((fs) => fs.mkdir(path.join(dir, 'inbox')));
  return {
    dir,
    run,
    publish,
    inbox: path.join(dir, 'inbox', 'round.json'),
    log: path.join(dir, 'runs', 'run-1.jsonl'),
  };
};

/** Linux: a process that called fs.watch holds an inotify descriptor; that is how a test knows the wait began. */
const watching = async (pid: number): Promise<void> => {
  for (let i = 0; i < 400; i += 1) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds)
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')).includes('inotify')) return;
    await sleep(25);
  }
  throw new Error(`process ${pid} never started watching`);
};

describe('completion from the command line', () => {
  it('record --wait records the report a producer publishes, with nothing on a non-TTY stderr', async () => {
    const { dir, publish, inbox } = await atRound2();
    const waiting = cli([
      '--dir',
      dir,
      'record',
      'run-1',
      '--wait',
      inbox,
      '--timeout-ms',
      '30000',
      '--json',
    ]);
    expect((await publish(report(2, 'B', { decisions: [decision(major, 'fixed')] }))).json).toMatchObject({
      ok: true,
      round: 2,
    });
    const recorded = await waiting;
    expect(recorded.code).toBe(0);
    expect(recorded.json).toMatchObject({ ok: true, round: 2, status: 'converged' });
    expect(recorded.stderr).toBe('');
  });

  it.runIf(process.platform === 'linux')(
    'wait prints the matching report; a stale report beside it is ignored',
    async () => {
      const { dir, publish, inbox } = await atRound2();
      await publish({ ...report(2, 'B'), runId: 'another-run' });
      const waiting = spawnCli([
        '--dir',
        dir,
        'wait',
        inbox,
        '--run',
        'run-1',
        '--round',
        '2',
        '--input-sha',
        sha('B'),
        '--timeout-ms',
        '30000',
      ]);
      await watching(waiting.pid); // it has read the stale report and is waiting on
      await publish(report(2, 'B', { decisions: [decision(major, 'open', 'still leaks')] }));
      const result = await waiting.result;
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({
        runId: 'run-1',
        round: 2,
        inputSha: sha('B'),
        decisions: [{ status: 'open' }],
      });
    },
  );

  it('wait exits 3 on timeout and 4 on an incomplete, malformed or oversized report', async () => {
    const { dir, inbox, publish } = await atRound2();
    const waitFor = (...extra: string[]) =>
      cli([
        '--dir',
        dir,
        'wait',
        inbox,
        '--run',
        'run-1',
        '--round',
        '2',
        '--input-sha',
        sha('B'),
        '--json',
        ...extra,
      ]);
    const timeout = await waitFor('--timeout-ms', '150', '--poll-ms', '20');
    expect([timeout.code, errorOf(timeout).code]).toEqual([3, 'timeout']);
    expect(errorOf(timeout).message).toMatch(/no complete report within 150 ms/);
    await publish({ ...report(2, 'B'), completed: false });
    const incomplete = await waitFor('--timeout-ms', '5000');
    expect([incomplete.code, errorOf(incomplete).code]).toEqual([4, 'incomplete']);
    await writeFile(inbox, '{"runId": "run-1", "round": 2,');
    expect([(await waitFor()).code, errorOf(await waitFor()).code]).toEqual([4, 'malformed']);
    await writeFile(inbox, JSON.stringify({ ...report(2, 'B'), notExamined: ['x'.repeat(5000)] }));
    const oversized = await waitFor('--max-bytes', '1024');
    expect([oversized.code, errorOf(oversized).code]).toEqual([4, 'oversized']);
    expect((await waitFor('--timeout-ms', '0')).code).toBe(2);
  });

  it('record --wait that times out appends round.failed: the trail shows it and the round stays open', async () => {
    const { dir, run, log } = await atRound2();
    const before = (await readFile(log, 'utf8')).split('\n').length;
    const failed = await run(
      'record',
      'run-1',
      '--wait',
      path.join(dir, 'inbox', 'never.json'),
      '--timeout-ms',
      '100',
      '--poll-ms',
      '20',
      '--json',
    );
    expect([failed.code, errorOf(failed).code]).toEqual([3, 'timeout']);
    const lines = (await readFile(log, 'utf8')).split('\n');
    expect(lines.length).toBe(before + 1);
    expect(JSON.parse(lines[lines.length - 2] as string)).toMatchObject({
      type: 'round.failed',
      data: { round: 2, inputSha: sha('B'), reason: 'timeout' },
    });
    const status = await run('status', 'run-1', '--json');
    expect(status.json).toMatchObject({
      status: 'open',
      round: 1,
      failedAttempts: 1,
      lastFailure: { round: 2, reason: 'timeout' },
    });
  });

  it.runIf(process.platform === 'linux')(
    'record --wait refuses a report whose revision stopped being current while it waited, leaving the log unchanged',
    async () => {
      const { dir, run, publish, inbox, log } = await atRound2();
      const waiting = spawnCli([
        '--dir',
        dir,
        'record',
        'run-1',
        '--wait',
        inbox,
        '--timeout-ms',
        '30000',
        '--json',
      ]);
      await watching(waiting.pid);
      // another push: round 2 now reviews input C, and the waited-for report reviewed B
      expect((await run('capture', 'run-1', '--input-sha', sha('C'), '--touched', major.file)).code).toBe(0);
      const afterCapture = await readFile(log);
      await publish(report(2, 'B', { decisions: [decision(major, 'fixed')] }));
      const refused = await waiting.result;
      expect([refused.code, errorOf(refused).code]).toEqual([1, 'wrong-input']);
      expect(errorOf(refused).message).toContain(
        `was refused: inputSha ${sha('B')} is not the input captured for round 2 (${sha('C')})`,
      );
      expect(await readFile(log)).toEqual(afterCapture);
    },
  );

  it('publish refuses a report that is not a round report, and writes nothing', async () => {
    const { dir, inbox } = await atRound2();
    const draft = path.join(dir, 'draft.json');
    await writeFile(draft, JSON.stringify({ ...report(2, 'B'), decisons: [] }));
    const result = await cli(['--dir', dir, 'publish', inbox, '--report', draft, '--json']);
    expect([result.code, errorOf(result).code]).toEqual([1, 'invalid-report']);
    expect(await readdir(path.dirname(inbox))).toEqual([]);
  });

  it.runIf(process.platform === 'linux')(
    'on a TTY the wait shows a spinner with elapsed and remaining time on stderr',
    async () => {
      const { dir, inbox } = await atRound2();
      const command = [
        process.execPath,
        CLI,
        '--dir',
        dir,
        'wait',
        inbox,
        '--run',
        'run-1',
        '--round',
        '2',
        '--input-sha',
        sha('B'),
        '--timeout-ms',
        '400',
      ];
      const quoted = command.map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
      const { stdout } = await promisify(execFile)('script', ['-qec', quoted, '/dev/null'], {
        env: { ...process.env, NO_COLOR: '1' },
      }).catch((e: { stdout: string }) => ({ stdout: e.stdout }));
      expect(stdout).toMatch(/waiting for .*round\.json 0\.\d s elapsed, 0\.\d s left/);
    },
  );
});
