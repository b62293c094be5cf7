import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

const major = candidate();
const sameLine = candidate({ category: 'security', summary: 'sockets exhaust under aborts' });

/** A store with run-1 opened under a policy expecting ada, bob and cy, round 1 captured as input A. */
const panelRun = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const policy = path.join(dir, 'policy.json');
  await writeFile(
    policy,
    JSON.stringify({
      name: 'panel',
      maxRounds: 1,
      severities: { major: { blocks: true } },
      experts: ['ada', 'bob', 'cy'],
    }),
  );
  await run('open', 'run-1', '--policy-file', policy, '--input-sha', sha('A'));
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value));
    return at;
  };
  return { dir, run, write, log: path.join(dir, 'runs', 'run-1.jsonl') };
};

describe('contributions from the command line', () => {
  it('contribute twice, then record --merge: one finding from both, the silent expert absent, the round partial', async () => {
    const { run, write } = await panelRun();
    const a = await run(
      'contribute',
      'run-1',
      '--expert',
      'ada',
      '--report',
      await write('a.json', report(1, 'A', { candidates: [major] })),
      '--json',
    );
    expect(a.code).toBe(0);
    expect(a.json).toMatchObject({ round: 1, expert: 'ada', contributions: ['ada'] });
    const b = await run(
      'contribute',
      'run-1',
      '--expert',
      'bob',
      '--report',
      await write('b.json', report(1, 'A', { candidates: [sameLine] })),
      '--json',
    );
    expect(b.json).toMatchObject({ contributions: ['ada', 'bob'] });
    const merged = await run('record', 'run-1', '--merge', '--json');
    expect(merged.code).toBe(0);
    expect(merged.json).toMatchObject({ round: 1, status: 'blocked' });
    // which of the two the merge keeps is decided by the reports' hashes, not by who came first
    expect(merged.json.opened).toHaveLength(1);
    expect([findingId(major), findingId(sameLine)]).toContain((merged.json.opened as string[])[0]);
    const status = await run('status', 'run-1', '--json');
    expect(status.stdout).toContain('"result":"partial"');
    expect(status.json.panels).toEqual([
      {
        round: 1,
        contributors: ['ada', 'bob'],
        absent: [
          { expert: 'cy', reason: 'missing', detail: 'handed in no report before the round was closed' },
        ],
      },
    ]);
    const explain = await run('explain', 'run-1');
    expect(explain.stdout).toContain('proposed by ada, bob (corroborated 2×)');
    expect(explain.stdout).toMatch(
      /merged from [0-9a-f]{12} \((security, src\/service\.js:10\) by bob|correctness, src\/service\.js:10\) by ada)/,
    );
    expect(explain.stdout).toContain('round 1 reviewed by ada, bob; absent: cy (missing');
    const feedback = await run('feedback', 'run-1');
    expect(feedback.stdout).toContain('absent: cy (missing)');
    expect(feedback.stdout).toContain('Seen by: ada, bob (1 candidate(s) merged in)');
    const replay = await run('replay', 'run-1');
    expect(replay.stdout).toMatch(/contribution of ada: 1 candidate/);
    expect(replay.stdout).toMatch(/cy absent \(missing\)/);
  });

  it('a refused contribution leaves the log byte for byte as it was', async () => {
    const { run, write, log } = await panelRun();
    await run('contribute', 'run-1', '--expert', 'ada', '--report', await write('a.json', report(1, 'A')));
    const before = await readFile(log);
    const twice = await run(
      'contribute',
      'run-1',
      '--expert',
      'bob',
      '--report',
      await write('d.json', report(1, 'A', { candidates: [major, major] })),
      '--json',
    );
    expect(twice.code).toBe(1);
    expect((twice.json.error as { code: string }).code).toBe('duplicate-candidate');
    // the same reviewer with the very same report is a retry: answered, nothing appended
    const retried = await run(
      'contribute',
      'run-1',
      '--expert',
      'ada',
      '--report',
      await write('a2.json', report(1, 'A')),
      '--json',
    );
    expect([retried.code, retried.json.alreadyRecorded]).toEqual([0, true]);
    // the same reviewer with another report is refused: one contribution a reviewer a round
    const again = await run(
      'contribute',
      'run-1',
      '--expert',
      'ada',
      '--report',
      await write('a3.json', report(1, 'A', { candidates: [major] })),
      '--json',
    );
    expect((again.json.error as { code: string }).code).toBe('duplicate-contribution');
    expect(await readFile(log)).toEqual(before);
  });

  it('record --merge with no contribution is refused as no-contributions, says what to do, and writes nothing', async () => {
    const { run, log } = await panelRun();
    const before = await readFile(log);
    const merged = await run('record', 'run-1', '--merge', '--json');
    expect(merged.code).toBe(1);
    const error = merged.json.error as { code: string; message: string };
    expect(error.code).toBe('no-contributions');
    expect(error.message).toContain('clearance contribute run-1 --expert NAME --report FILE');
    expect(error.message).toContain('clearance record run-1 --report FILE');
    expect(await readFile(log)).toEqual(before);
  });

  it('collect: a published report is appended, a malformed and a missing one are absent, and the round closes partial', async () => {
    const { dir, run, write } = await panelRun();
    await mkdir(path.join(dir, 'inbox'));
    const inbox = (name: string) => path.join(dir, 'inbox', `${name}.json`);
    // published before the wait starts: collect reads it at once; a malformed one fails at once
    await run(
      'publish',
      inbox('ada'),
      '--report',
      await write('a.json', report(1, 'A', { candidates: [major] })),
    );
    await writeFile(inbox('bob'), '{"runId": "run-1", "round": 1, not json');
    const collected = await run(
      'collect',
      'run-1',
      '--expert',
      `ada=${inbox('ada')}`,
      '--expert',
      `bob=${inbox('bob')}`,
      '--expert',
      `cy=${inbox('cy')}`,
      '--timeout-ms',
      '300',
      '--json',
    );
    expect(collected.code).toBe(0);
    expect(collected.json).toMatchObject({ round: 1, status: 'blocked', opened: [findingId(major)] });
    const log = await readFile(path.join(dir, 'runs', 'run-1.jsonl'), 'utf8');
    const absent = log
      .split('\n')
      .filter((l) => l.includes('"contribution.absent"'))
      .map((l) => JSON.parse(l).data);
    expect(absent.map((a: { expert: string; reason: string }) => [a.expert, a.reason]).sort()).toEqual([
      ['bob', 'malformed'],
      ['cy', 'missing'],
    ]);
  });
});
