import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { candidate, nit, report, sha } from '../support/builders.js';
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
      severities: { major: { blocks: true }, nit: { blocks: false } },
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

/**
 * Round 1 of run-1 from ada and bob, cy absent: each proposes a major of their own (in files of
 * their own) and the same major on one line, and a nit on another line in their own words.
 */
const mergedRound = async () => {
  const panel = await panelRun();
  const shared = candidate();
  const own = (file: string) => candidate({ file, line: 1, summary: `unchecked input in ${file}` });
  const adaReport = report(1, 'A', {
    candidates: [own('src/a.js'), shared, nit(5, { summary: 'Rename x' })],
  });
  const bobReport = report(1, 'A', {
    candidates: [own('src/b.js'), shared, nit(5, { summary: 'x is a poor name' })],
  });
  await panel.run(
    'contribute',
    'run-1',
    '--reviewer',
    'ada',
    '--report',
    await panel.write('a.json', adaReport),
  );
  await panel.run(
    'contribute',
    'run-1',
    '--reviewer',
    'bob',
    '--report',
    await panel.write('b.json', bobReport),
  );
  const merged = await panel.run('record', 'run-1', '--merge', '--json');
  expect(merged.code).toBe(0);
  return { ...panel, shared };
};

describe('the views of a round from several reviewers', () => {
  it("status lists each round's contributions (who, which report, what it held) and absentees", async () => {
    const { run, log } = await mergedRound();
    const shas = (await readFile(log, 'utf8'))
      .split('\n')
      .filter((l) => l.includes('"contribution.recorded"'))
      .map((l) => JSON.parse(l).data.reportSha as string);
    const status = await run('status', 'run-1', '--json');
    expect(status.json.panels).toEqual([
      {
        round: 1,
        contributors: ['ada', 'bob'],
        reports: [
          { reviewer: 'ada', reportSha: shas[0], candidates: 3, decisions: 0 },
          { reviewer: 'bob', reportSha: shas[1], candidates: 3, decisions: 0 },
        ],
        absent: [
          { expert: 'cy', reason: 'missing', detail: 'handed in no report before the round was closed' },
        ],
      },
    ]);
    // the round is closed: nothing is in progress
    expect(status.json.contributions).toEqual({ round: 2, contributors: [], reports: [], absent: [] });
    const text = await run('status', 'run-1');
    expect(text.stdout).toContain(
      'round 1 reviewed by: ada (3 candidate(s), 0 decision(s)), bob (3 candidate(s), 0 decision(s)); absent: cy (missing: handed in no report before the round was closed)',
    );
  });

  it('status shows the round in progress as far as it got: contributions so far, absentees with their reason', async () => {
    const { run, write, dir } = await panelRun();
    await mkdir(path.join(dir, 'inbox'));
    await writeFile(path.join(dir, 'inbox', 'bob.json'), 'not json');
    // nobody usable: bob is recorded absent and the round stays open (a timeout, exit 3)
    const collected = await run(
      'collect',
      'run-1',
      '--reviewer',
      `bob=${path.join(dir, 'inbox', 'bob.json')}`,
      '--timeout-ms',
      '200',
      '--json',
    );
    expect(collected.code).toBe(3);
    await run('contribute', 'run-1', '--reviewer', 'ada', '--report', await write('a.json', report(1, 'A')));
    const status = await run('status', 'run-1', '--json');
    expect(status.json.panels).toEqual([]);
    expect(status.json.contributions).toMatchObject({
      round: 1,
      contributors: ['ada'],
      reports: [{ reviewer: 'ada', candidates: 0, decisions: 0 }],
      absent: [{ expert: 'bob', reason: 'malformed' }],
    });
    const text = await run('status', 'run-1');
    expect(text.stdout).toMatch(
      /round 1 so far: ada \(0 candidate\(s\), 0 decision\(s\)\); absent: bob \(malformed: /,
    );
  });

  it('explain shows every merge, with its corroboration count, advisory ones too', async () => {
    const { run, shared } = await mergedRound();
    const explain = await run('explain', 'run-1', '--json');
    const blocking = explain.json.blocking as Array<{
      id: string;
      corroboration: number;
      reviewers: string[];
    }>;
    expect(blocking.map((b) => [b.id === findingId(shared), b.corroboration]).sort()).toEqual([
      [false, 1],
      [false, 1],
      [true, 2],
    ]);
    const merges = explain.json.merges as Array<{
      severity: string;
      corroboration: number;
      mergedFrom: unknown[];
    }>;
    // the shared major (same id: corroborated, nothing absorbed) and the two nits on one line (one absorbed)
    expect(merges.map((m) => [m.severity, m.corroboration, m.mergedFrom.length]).sort()).toEqual([
      ['major', 2, 0],
      ['nit', 2, 1],
    ]);
    const text = await run('explain', 'run-1');
    expect(text.stdout).toMatch(
      /merged: [0-9a-f]{12} \[nit\] src\/style\.js:5 \(open, advisory, round 1\)\n {4}proposed by ada, bob \(corroborated 2×\)\n {4}merged from [0-9a-f]{12} \(style, src\/style\.js:5\) by (ada|bob)/,
    );
    expect(text.stdout).toContain(
      `${findingId(shared).slice(0, 12)} [major] src/service.js:10 Missing close\n    proposed by ada, bob (corroborated 2×)`,
    );
  });

  it('replay shows every contribution, every absence, and what the merged round was made of', async () => {
    const { run } = await mergedRound();
    const replay = await run('replay', 'run-1');
    expect(replay.stdout).toContain('contribution of ada: 3 candidate(s), 0 decision(s)');
    expect(replay.stdout).toContain('contribution of bob: 3 candidate(s), 0 decision(s)');
    expect(replay.stdout).toContain('cy absent (missing): handed in no report before the round was closed');
    expect(replay.stdout).toContain(
      'merge of 2 contribution(s): ada (3 candidate(s)), bob (3 candidate(s)); absent: cy (missing); recorded as partial',
    );
    const json = await run('replay', 'run-1', '--json');
    expect((json.json.events as Array<{ type: string }>).map((e) => e.type)).toEqual([
      'run.opened',
      'revision.captured',
      'contribution.recorded',
      'contribution.recorded',
      'contribution.absent',
      'round.recorded',
    ]);
  });

  it('feedback ranks blocking findings by corroboration: the one both reviewers saw comes first', async () => {
    const { run, shared } = await mergedRound();
    // without the ranking, a finding only one reviewer saw would come first (the merge's order)
    const status = await run('status', 'run-1', '--json');
    expect((status.json.findings as Array<{ id: string }>)[0]?.id).not.toBe(findingId(shared));
    const feedback = await run('feedback', 'run-1');
    const blocking = feedback.stdout.split('### Blocking')[1] ?? '';
    const first = blocking.match(/- `([0-9a-f]{12})`/)?.[1];
    expect(first).toBe(findingId(shared).slice(0, 12));
    expect(blocking).toContain('Seen by: ada, bob');
    expect(feedback.stdout).toContain('absent: cy (missing)');
  });
});

describe('contributions from the command line', () => {
  it('contribute twice, then record --merge: one finding from both, the silent reviewer absent, the round partial', async () => {
    const { run, write } = await panelRun();
    const a = await run(
      'contribute',
      'run-1',
      '--reviewer',
      'ada',
      '--report',
      await write('a.json', report(1, 'A', { candidates: [major] })),
      '--json',
    );
    expect(a.code).toBe(0);
    expect(a.json).toMatchObject({ round: 1, expert: 'ada', contributions: ['ada'] });
    // --expert: the older spelling of --reviewer, hidden from --help, kept for the scripts that use it
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
        reports: [
          { reviewer: 'ada', reportSha: expect.any(String), candidates: 1, decisions: 0 },
          { reviewer: 'bob', reportSha: expect.any(String), candidates: 1, decisions: 0 },
        ],
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
    await run('contribute', 'run-1', '--reviewer', 'ada', '--report', await write('a.json', report(1, 'A')));
    const before = await readFile(log);
    const twice = await run(
      'contribute',
      'run-1',
      '--reviewer',
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
      '--reviewer',
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
      '--reviewer',
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
    const error = merged.json.error as { code: string; message: string; next: unknown };
    expect(error.code).toBe('no-contributions');
    // the next step is data under --json; on a terminal it is the command a person types
    expect(error.next).toEqual({
      action: 'contribute',
      runId: 'run-1',
      or: { action: 'record', runId: 'run-1' },
    });
    expect(error.message).not.toContain('clearance ');
    const said = await run('record', 'run-1', '--merge');
    expect(said.stderr).toContain('next: clearance contribute run-1 --reviewer NAME --report FILE');
    expect(said.stderr).toContain('or: clearance record run-1 --report FILE');
    expect(await readFile(log)).toEqual(before);
  });

  it.each(['--reviewer', '--expert'])(
    'collect (%s): a published report is appended, a malformed and a missing one are absent, and the round closes partial',
    async (flag) => {
      const { dir, run, write } = await panelRun();
      await mkdir(path.join(dir, 'inbox'));
      const inbox = (name: string) => path.join(dir, 'inbox', `${name}.json`);
      // published before the wait starts: collect reads it at once; a malformed one fails at once
      const published = await run(
        'publish',
        inbox('ada'),
        flag,
        'ada',
        '--report',
        await write('a.json', report(1, 'A', { candidates: [major] })),
      );
      expect(published.code).toBe(0);
      await writeFile(inbox('bob'), '{"runId": "run-1", "round": 1, not json');
      const collected = await run(
        'collect',
        'run-1',
        flag,
        `ada=${inbox('ada')}`,
        flag,
        `bob=${inbox('bob')}`,
        flag,
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
    },
  );
});

describe('--reviewer, and --expert: its older spelling, hidden', () => {
  it('refuses both spellings at once as a usage error naming both, writing nothing', async () => {
    const { dir, run, write, log } = await panelRun();
    const rp = await write('a.json', report(1, 'A', { candidates: [major] }));
    const before = await readFile(log);
    const attempts = [
      ['contribute', 'run-1', '--reviewer', 'ada', '--expert', 'ada', '--report', rp],
      ['collect', 'run-1', '--reviewer', `ada=${rp}`, '--expert', `bob=${rp}`, '--timeout-ms', '100'],
      ['publish', path.join(dir, 'out.json'), '--reviewer', 'ada', '--expert', 'ada', '--report', rp],
    ];
    for (const argv of attempts) {
      const said = await run(...argv);
      expect(said.code, argv[0]).toBe(2);
      expect(said.stderr).toContain('give --reviewer or --expert');
      expect(said.stderr).toContain('not both');
    }
    const neither = await run('collect', 'run-1', '--timeout-ms', '100');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('collect needs --reviewer NAME=PATH');
    expect(await readFile(log)).toEqual(before);
    await expect(readFile(path.join(dir, 'out.json'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('--help shows only --reviewer', async () => {
    for (const command of ['contribute', 'publish', 'collect']) {
      const help = await cli([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(/--reviewer <name/);
      expect(help.stdout, command).not.toContain('--expert');
    }
  });
});
