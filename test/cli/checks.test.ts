import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../src/cli/exit-codes.js';
import { hasControl } from '../../src/text/untrusted.js';
import { report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

const RUN = 'run-1';
const TEST_LOG = 'https://github.com/o/r/actions/runs/7/job/70';

/** run-1, round 1 captured, under a policy that requires test, notes docs and lets lint be skipped. */
const waitingForChecks = async (over: Record<string, unknown> = {}) => {
  const dir = await tempDir();
  const run = (args: ReadonlyArray<string>, input?: string) =>
    cli(['--dir', dir, ...args], input === undefined ? {} : { input });
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value));
    return at;
  };
  const policy = await write('policy.json', {
    name: 'ci',
    maxRounds: 3,
    severities: { major: { blocks: true } },
    stages: [],
    checks: { required: ['test', 'lint'], optional: ['docs'], expectedSkips: ['lint'] },
    ...over,
  });
  const opened = await run(['open', RUN, '--policy-file', policy, '--input-sha', sha('A')]);
  expect(opened.code, opened.stderr).toBe(0);
  return { dir, run, write };
};

const errorOf = (json: Record<string, unknown>) => json.error as { code: string; message: string };

describe('clearance checks, from gh pr checks --json name,state,link', () => {
  it("maps gh's states, reads standard input, and keeps each link; a failed optional check is noted", async () => {
    const { run } = await waitingForChecks();
    const gh = [
      { name: 'test', state: 'SUCCESS', link: TEST_LOG },
      { name: 'lint', state: 'SKIPPED', link: '' },
      { name: 'docs', state: 'FAILURE', link: 'https://ci.example/docs' },
      { name: 'deploy-preview', state: 'NEUTRAL', link: '' },
    ];
    const recorded = await run(['checks', RUN, '--from', '-', '--json'], JSON.stringify(gh));
    expect(recorded.code, recorded.stdout).toBe(0);
    expect(recorded.json).toMatchObject({
      ok: true,
      round: 1,
      inputSha: sha('A'),
      result: 'recorded',
      checks: [
        { name: 'test', state: 'passed', url: TEST_LOG },
        { name: 'lint', state: 'skipped' },
        { name: 'docs', state: 'failed', url: 'https://ci.example/docs' },
        { name: 'deploy-preview', state: 'passed' },
      ],
      failed: [],
      noted: [{ name: 'docs', state: 'failed', url: 'https://ci.example/docs' }],
      required: ['test', 'lint'],
      reason: null,
      status: 'open',
      alreadyRecorded: false,
    });
    expect((recorded.json.checks as Array<Record<string, unknown>>)[1]).not.toHaveProperty('url');
    const again = await run(['checks', RUN, '--from', '-'], JSON.stringify(gh));
    expect(again.stdout).toMatch(/^already recorded: 4 check\(s\) on round 1's input/);
    expect(again.stdout).toContain(
      'optional check(s) failed, noted (they never end a round): docs (https://ci.example/docs)',
    );
    expect(again.stdout).toContain(
      'every required check passed (test, lint): the round goes on to its report',
    );
  });

  it('a failed required check from a file ends the round ci_failed, and its link is the feedback', async () => {
    const { run, write } = await waitingForChecks();
    const file = await write('checks.json', [
      { name: 'test', state: 'TIMED_OUT', link: TEST_LOG, workflow: 'CI', bucket: 'fail' },
      { name: 'lint', state: 'SUCCESS', link: '' },
    ]);
    const ended = await run(['checks', RUN, '--from', file]);
    expect(ended.code, ended.stderr).toBe(0);
    expect(ended.stdout).toContain(`round 1 ended ci_failed: required check test (${TEST_LOG}) failed`);
    expect(ended.stdout).toContain(
      `that is the author's feedback (clearance feedback ${RUN}); capture the fix for round 2`,
    );
    const status = await run(['status', RUN, '--json']);
    expect(status.json).toMatchObject({
      round: 1,
      rounds: [{ round: 1, result: 'ci_failed', reason: `required check test (${TEST_LOG}) failed` }],
    });
    expect((await run(['feedback', RUN])).stdout).toContain(
      'Round 1 ended without a review because CI failed',
    );
    expect((await run(['next', RUN, '--json'])).json).toMatchObject({ action: 'capture', round: 2 });
    // the same record offered again is a retry, not a record for round 2
    const retry = await run(['checks', RUN, '--from', file, '--json']);
    expect(retry.json).toMatchObject({ result: 'ci_failed', round: 1, alreadyRecorded: true, seq: null });
  });

  it('checks still running are refused (usage), naming them, and nothing is written', async () => {
    const { dir, run } = await waitingForChecks();
    const before = await snapshot(dir);
    const pending = [
      { name: 'test', state: 'IN_PROGRESS', link: '' },
      { name: 'lint', state: 'SUCCESS', link: '' },
      { name: 'e2e', state: 'EXPECTED', link: '' },
    ];
    const refused = await run(['checks', RUN, '--from', '-', '--json'], JSON.stringify(pending));
    expect([refused.code, errorOf(refused.json).code]).toEqual([2, 'usage']);
    expect(errorOf(refused.json).message).toBe(
      'the checks have not finished: "test" (IN_PROGRESS), "e2e" (EXPECTED); run it again when they have (gh pr checks --watch waits for them)',
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it('what is not gh pr checks --json output is refused, naming where (usage), and nothing is written', async () => {
    const { dir, run } = await waitingForChecks();
    const before = await snapshot(dir);
    const cases: Array<[string, RegExp]> = [
      [
        '{"name":"test"}',
        /is not what gh pr checks --json name,state,link prints: .*expected a list, found an object/,
      ],
      ['[{"name":"test","state":"SUCCESS","linkk":"x"}]', /unknown key "linkk" in \[0\] \(misspelt\?\)/],
      ['[{"name":"test","state":"success"}]', /has the state "success", which gh does not print/],
      ['[{"name":"test","state":"SUCCESS","name":"lint"}]', /not JSON: .*duplicate/i],
      ['[{"name": "test",', /not JSON/],
    ];
    for (const [input, message] of cases) {
      const refused = await run(['checks', RUN, '--from', '-', '--json'], input);
      expect([refused.code, errorOf(refused.json).code], input).toEqual([2, 'usage']);
      expect(errorOf(refused.json).message, input).toMatch(message);
    }
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('clearance checks --check NAME=STATE [--url URL]', () => {
  it('each --url is the link of the --check just before it', async () => {
    const { run } = await waitingForChecks();
    const recorded = await run([
      'checks',
      RUN,
      '--check',
      'lint=passed',
      '--check',
      'test=failed',
      '--url',
      TEST_LOG,
      '--check',
      'build (node=20)=passed',
      '--url',
      'https://ci.example/build',
      '--json',
    ]);
    expect(recorded.json).toMatchObject({
      checks: [
        { name: 'lint', state: 'passed' },
        { name: 'test', state: 'failed', url: TEST_LOG },
        { name: 'build (node=20)', state: 'passed', url: 'https://ci.example/build' },
      ],
      result: 'ci_failed',
      failed: [{ name: 'test', state: 'failed', url: TEST_LOG }],
      reason: `required check test (${TEST_LOG}) failed`,
    });
  });

  it('a --url with no --check before it, two for one check, a state that is none, or no checks at all: usage', async () => {
    const { dir, run } = await waitingForChecks();
    const before = await snapshot(dir);
    const cases: Array<[string[], RegExp]> = [
      [['--url', TEST_LOG, '--check', 'test=passed'], /--url goes after the --check whose link it is/],
      [['--check', 'test=passed', '--url', TEST_LOG, '--url', TEST_LOG], /check "test" has two --url/],
      [['--check', 'test=green'], /--check "test=green": expected NAME=passed, NAME=failed or NAME=skipped/],
      [['--check', '=passed'], /expected NAME=passed/],
      [[], /checks needs --check NAME=STATE \(repeatable\) or --from FILE, one of the two/],
      [['--check', 'test=passed', '--from', '-'], /one of the two/],
    ];
    for (const [args, message] of cases) {
      const refused = await run(['checks', RUN, ...args, '--json'], '[]');
      expect([refused.code, errorOf(refused.json).code], args.join(' ')).toEqual([2, 'usage']);
      expect(errorOf(refused.json).message, args.join(' ')).toMatch(message);
    }
    expect(await snapshot(dir)).toEqual(before);
  });

  it('hostile names and links are refused (invalid-text), shown escaped, and nothing is written', async () => {
    const { dir, run } = await waitingForChecks();
    const before = await snapshot(dir);
    const cases: Array<[string[], RegExp]> = [
      [['--check', 'te\u001b[2Jst=passed'], /check 1's name "te\\u001b\[2Jst" holds the control character/],
      [['--check', 'te\nst=passed'], /holds the control character \\n/],
      [['--check', 'tes\u202et=passed'], /holds the bidi control \\u202e/],
      [['--check', `${'x'.repeat(300)}=passed`], /300 characters long, over the 256/],
      [
        ['--check', 'test=failed', '--url', 'javascript:alert(1)'],
        /is a javascript: URL, not an http\(s\) one/,
      ],
      [
        ['--check', 'test=failed', '--url', 'https://ci.example@evil.example/'],
        /carries a user name or password/,
      ],
      [['--check', 'test=failed', '--url', 'https://ci.example/\u0085x'], /holds the control character/],
      [['--check', 'test=failed', '--url', 'not a url'], /holds whitespace/],
      [['--check', 'test=failed', '--url', 'ci.example/run/1'], /is not a URL/],
    ];
    for (const [args, message] of cases) {
      const refused = await run(['checks', RUN, ...args]);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr, args.join(' ')).toMatch(message);
      expect(refused.stderr, args.join(' ')).toMatch(/\[invalid-text\]\n$/);
      expect(hasControl(refused.stderr.slice(0, -1)), JSON.stringify(refused.stderr)).toBe(false);
    }
    const fromGh = await run(
      ['checks', RUN, '--from', '-', '--json'],
      JSON.stringify([{ name: 'test', state: 'FAILURE', link: 'file:///etc/passwd' }]),
    );
    expect([fromGh.code, errorOf(fromGh.json).code]).toEqual([1, 'invalid-text']);
    expect(errorOf(fromGh.json).message).toMatch(
      /^--from -: the link of check "test", "file:\/\/\/etc\/passwd", is a file: URL/,
    );
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a required check missing from the record is refused (missing-check), and the log is unchanged', async () => {
    const { dir, run } = await waitingForChecks();
    const log = path.join(dir, 'runs', `${RUN}.jsonl`);
    const before = [await readFile(log), await readFile(`${log.slice(0, -'.jsonl'.length)}.head`)];
    const refused = await run(['checks', RUN, '--check', 'lint=passed', '--json']);
    expect([refused.code, errorOf(refused.json).code]).toEqual([1, 'missing-check']);
    expect(errorOf(refused.json).message).toMatch(
      /required check\(s\) test not among the 1 check\(s\) recorded/,
    );
    expect([await readFile(log), await readFile(`${log.slice(0, -'.jsonl'.length)}.head`)]).toEqual(before);
  });

  it('--help shows examples, gh among them', async () => {
    const help = await cli(['checks', '--help']);
    expect(help.stdout).toContain('Examples:');
    expect(help.stdout).toContain(
      'gh pr checks 236 --json name,state,link | clearance checks pr-236 --from -',
    );
    expect(help.stdout).toContain('--check test=failed --url https://');
  });
});

describe('the loop with required checks', () => {
  it('next says checks are due; a report waits for them; a failing round, then a passing one, then the gate', async () => {
    const { dir, run, write } = await waitingForChecks();
    const doc = await write('spec.md', '# Spec\n\nv1\n');
    // a run on a document, so the gate has bytes to compare
    const policy = path.join(dir, 'policy.json');
    const opened = await run(['open', 'doc', '--policy-file', policy, '--artifact', doc, '--json']);
    const input1 = (opened.json.capture as { inputSha: string }).inputSha;
    const next = await run(['next', 'doc', '--json']);
    expect(next.json).toMatchObject({
      action: 'record-checks',
      round: 1,
      inputSha: input1,
      required: ['test', 'lint'],
    });
    expect((await run(['next', 'doc'])).stdout).toMatch(
      /^record-checks: record the CI checks of round 1's input/,
    );
    const pass = await write('r1.json', { ...report(1, 'x'), runId: 'doc', inputSha: input1 });
    const early = await run(['record', 'doc', '--report', pass, '--json']);
    expect([early.code, errorOf(early.json).code]).toEqual([1, 'checks-not-recorded']);

    const failing = await run(['checks', 'doc', '--check', 'test=failed', '--url', TEST_LOG]);
    expect(failing.stdout).toContain('round 1 ended ci_failed');
    const gate1 = await run(['gate', 'doc', '--artifact', doc, '--json']);
    expect([gate1.code, errorOf(gate1.json).code]).toEqual([1, 'no-review']);

    await writeFile(doc, '# Spec\n\nv2: the test passes\n');
    const captured = await run(['capture', 'doc', '--artifact', doc, '--json']);
    const input2 = (captured.json.capture as { inputSha: string }).inputSha;
    expect((await run(['checks', 'doc', '--check', 'test=passed', '--check', 'lint=skipped'])).code).toBe(0);
    const r2 = await write('r2.json', { ...report(2, 'x'), runId: 'doc', inputSha: input2 });
    const recorded = await run(['record', 'doc', '--report', r2, '--json']);
    expect(recorded.json).toMatchObject({ ok: true, round: 2, status: 'converged' });
    const gate2 = await run(['gate', 'doc', '--artifact', doc, '--json']);
    expect(gate2.json).toMatchObject({ ok: true, approved: true, inputSha: input2, boundBy: 'artifact' });
  });

  it("checks-not-passed is one of the gate's refusals: exit 1, listed in gate --help", async () => {
    expect(exitCodeFor('checks-not-passed')).toBe(1);
    expect((await cli(['gate', '--help'])).stdout).toContain('checks-not-passed');
  });
});
