import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, idOf, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir as gitTemp, makeRepo } from '../support/git-repo.js';
import { tempDir } from '../support/tmp.js';

/**
 * What a newcomer trips on (issue 30), through the real command line: every end says what can
 * happen next, every message is clearance's own, and nothing refused writes a byte.
 */

type Failure = { code: string; message: string; next?: unknown };
const failureOf = (json: Record<string, unknown>) => json.error as Failure;

const storeAndRun = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const logOf = (runId: string) => readFile(path.join(dir, 'runs', `${runId}.jsonl`));
  return { dir, run, logOf };
};

const writeReport = async (dir: string, name: string, body: unknown) => {
  const file = path.join(dir, '..', `${path.basename(dir)}-${name}`);
  await writeFile(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
};

describe('every end names its next step', () => {
  it('a converged run, then a new commit: capture says to open a new run for it, and writes nothing', async () => {
    const repo = makeRepo();
    repo.write('src/a.js', 'one\n');
    const first = repo.commitAll('first');
    const { dir, run, logOf } = await storeAndRun();
    expect((await run('open', 'pr-1', '--repo', repo.dir)).code).toBe(0);
    const r1 = await writeReport(dir, 'r1.json', { ...report(1, 'A', { runId: 'pr-1' }), inputSha: first });
    expect((await run('record', 'pr-1', '--report', r1)).stdout).toContain('converged');
    repo.write('src/a.js', 'two\n');
    repo.commitAll('second');
    const before = await logOf('pr-1');
    const refused = await run('capture', 'pr-1', '--repo', repo.dir, '--json');
    expect(refused.code).toBe(1);
    expect(failureOf(refused.json)).toMatchObject({
      code: 'run-final',
      message: expect.stringContaining('to review new commits, open a new run for them'),
      next: { action: 'open', runId: 'pr-1', args: { newRun: true } },
    });
    const said = await run('capture', 'pr-1', '--repo', repo.dir);
    expect(said.stderr).toContain('next: clearance open NEW-RUN --repo DIR');
    expect(await logOf('pr-1')).toEqual(before);
  });

  it('a blocked run: record at the cap says why and what a person can do; capture and feedback say the same', async () => {
    const { dir, run, logOf } = await storeAndRun();
    expect((await run('open', 'pr-2', '--input-sha', sha('a1'), '--policy', 'default')).code).toBe(0);
    const open = report(1, 'a1', { runId: 'pr-2', candidates: [candidate()] });
    // the default preset's cap: rounds until it, each keeping the finding open
    const id = idOf(candidate());
    let round = 1;
    let recorded = await run('record', 'pr-2', '--report', await writeReport(dir, 'r1.json', open));
    while (!recorded.stdout.includes('blocked')) {
      round += 1;
      const input = `a${round}`;
      expect(
        (await run('capture', 'pr-2', '--input-sha', sha(input), '--touched', 'src/service.js')).code,
      ).toBe(0);
      const keptOpen = report(round, input, {
        runId: 'pr-2',
        decisions: [{ id, status: 'open', evidence: `still there in round ${round}` }],
      });
      recorded = await run('record', 'pr-2', '--report', await writeReport(dir, `r${round}.json`, keptOpen));
      expect(recorded.code, recorded.stderr).toBe(0);
    }
    expect(recorded.stdout).toMatch(/blocked at round \d+, the cap of \d+: only a person can go on/);
    expect(recorded.stdout).toContain(
      'next: clearance rule pr-2 FINDING --fixed|--withdrawn --why TEXT --by NAME',
    );
    expect(recorded.stdout).toContain('or: clearance extend pr-2 --rounds N --why TEXT --by NAME');
    const before = await logOf('pr-2');
    const capture = await run('capture', 'pr-2', '--input-sha', sha('zz'), '--json');
    expect(failureOf(capture.json)).toMatchObject({
      code: 'run-final',
      message: expect.stringContaining(
        'takes no more rounds unless a person extends it, or rules on the findings',
      ),
      next: { action: 'extend', runId: 'pr-2', or: { action: 'rule', runId: 'pr-2' } },
    });
    const feedback = await run('feedback', 'pr-2');
    expect(feedback.stdout).toContain('The run is blocked, so it takes no more reports');
    expect(feedback.stdout).not.toContain("in the next report's `decisions`");
    expect(await logOf('pr-2')).toEqual(before);
  });
});

describe("clearance's own words", () => {
  const opened = async () => {
    const s = await storeAndRun();
    expect((await s.run('open', 'pr-3', '--input-sha', sha('b1'))).code).toBe(0);
    return s;
  };

  it('a schema error names the field, what was expected, what was found, and the fix', async () => {
    const { dir, run, logOf } = await opened();
    const before = await logOf('pr-3');
    const recordJson = async (name: string, body: object) =>
      run('record', 'pr-3', '--report', await writeReport(dir, name, body), '--json');
    const { completed: _, ...noCompleted } = report(1, 'b1', { runId: 'pr-3' });
    const refused = await recordJson('a.json', noCompleted);
    expect(failureOf(refused.json).message).toBe(
      'invalid round report: completed: expected true or false, found nothing (the key is missing): add it',
    );
    const noEvidence = report(1, 'b1', { runId: 'pr-3', candidates: [candidate()] });
    const broken = { ...noEvidence, candidates: [{ ...noEvidence.candidates[0], evidence: undefined }] };
    const evidence = await recordJson('b.json', broken);
    expect(failureOf(evidence.json).message).toContain(
      'candidates[0].evidence: expected a string, found nothing (the key is missing): add it',
    );
    expect(failureOf(evidence.json).message).not.toMatch(/Invalid input|received undefined/);
    expect(await logOf('pr-3')).toEqual(before);
  });

  it('Markdown given to --report is told to use --findings-md; a cut-short file is an unexpected end', async () => {
    const { dir, run } = await opened();
    const md = await writeReport(dir, 'round-1.md', '# Review\n\n- [major src/a.js:3] leaks :: it does\n');
    const prose = await run('record', 'pr-3', '--report', md, '--json');
    expect(failureOf(prose.json).message).toMatch(
      /not JSON: unexpected "#" at line 1, column 1; it looks like a Markdown review: record it with --findings-md /,
    );
    const cut = await writeReport(
      dir,
      'cut.json',
      JSON.stringify(report(1, 'b1', { runId: 'pr-3' })).slice(0, 26),
    );
    const truncated = await run('record', 'pr-3', '--report', cut, '--json');
    expect(failureOf(truncated.json).message).toMatch(
      /not JSON: unexpected end of the text at line 1, column \d+/,
    );
    expect(failureOf(truncated.json).message).not.toContain('PropertyNameExpected');
  });

  it('a finding prefix too short is said so, and a ruling names its finding in plain grammar', async () => {
    const { dir, run } = await opened();
    // blocked at round 1 under a one-round policy, so a ruling is in order
    const policy = await writeReport(dir, 'policy.json', {
      name: 'one-round',
      maxRounds: 1,
      severities: { major: { blocks: true } },
    });
    expect((await run('open', 'pr-4', '--input-sha', sha('c1'), '--policy-file', policy)).code).toBe(0);
    const r1 = await writeReport(
      dir,
      'c.json',
      report(1, 'c1', { runId: 'pr-4', candidates: [candidate()] }),
    );
    expect((await run('record', 'pr-4', '--report', r1)).stdout).toContain('blocked');
    const short = await run('rule', 'pr-4', 'dead', '--withdrawn', '--why', 'moot', '--by', 'Ada', '--json');
    expect(failureOf(short.json).message).toContain(`"dead" is too short to name a finding`);
    const unknown = await run(
      'rule',
      'pr-4',
      'deadbeef',
      '--withdrawn',
      '--why',
      'moot',
      '--by',
      'Ada',
      '--json',
    );
    expect(failureOf(unknown.json).message).toMatch(
      /^the ruling's finding "deadbeef" is not a finding of this run/,
    );
  });

  it('git failures: no such directory and no commit yet are EX_NOINPUT (66), not a repository is usage (2)', async () => {
    const { run } = await storeAndRun();
    const nowhere = await run('open', 'x1', '--repo', '/tmp/clearance-no-such-dir', '--json');
    expect([nowhere.code, failureOf(nowhere.json).code]).toEqual([66, 'no-such-directory']);
    expect(failureOf(nowhere.json).message).toBe(
      'there is no directory /tmp/clearance-no-such-dir: give the directory of the git repository under review',
    );
    const plain = gitTemp();
    const outside = await run('open', 'x2', '--repo', plain, '--json');
    expect([outside.code, failureOf(outside.json).code]).toEqual([2, 'not-a-repository']);
    expect(failureOf(outside.json).message).not.toMatch(/fatal:|rev-parse/);
    const empty = makeRepo();
    const noCommit = await run('open', 'x3', '--repo', empty.dir, '--json');
    expect([noCommit.code, failureOf(noCommit.json).code]).toEqual([66, 'no-commit']);
    expect(failureOf(noCommit.json).message).toContain('has no commit yet: commit what is to be reviewed');
  });
});

describe('the small wrong things', () => {
  it('report --html - writes the page to standard output and no file named -', async () => {
    const { dir, run } = await storeAndRun();
    expect((await run('open', 'pr-5', '--input-sha', sha('d1'))).code).toBe(0);
    expect(
      (
        await run(
          'record',
          'pr-5',
          '--report',
          await writeReport(dir, 'd.json', report(1, 'd1', { runId: 'pr-5' })),
        )
      ).code,
    ).toBe(0);
    const cwd = await tempDir();
    const page = await cli(['--dir', dir, 'report', 'pr-5', '--html', '-'], { cwd });
    expect(page.code).toBe(0);
    expect(page.stdout).toMatch(/^<!doctype html>/i);
    expect(existsSync(path.join(cwd, '-'))).toBe(false);
    const withJson = await cli(['--dir', dir, 'report', 'pr-5', '--html', '-', '--json'], { cwd });
    expect([withJson.code, failureOf(withJson.json).code]).toEqual([2, 'usage']);
  });

  it('a malformed finding line inside an HTML comment refuses the review, quoting it', async () => {
    const { dir, run, logOf } = await storeAndRun();
    expect((await run('open', 'pr-6', '--input-sha', sha('e1'))).code).toBe(0);
    const before = await logOf('pr-6');
    const review = await writeReport(
      dir,
      'review.md',
      '# Review\n\nNo findings.\n\n<!--\n- [major src/a.js:3 :: no closing bracket here\n-->\n\nVerdict: converged\n',
    );
    const refused = await run('record', 'pr-6', '--findings-md', review, '--json');
    expect(refused.code).toBe(1);
    expect(failureOf(refused.json).message).toContain(
      'inside an HTML comment, which no one sees when the review is rendered',
    );
    expect(failureOf(refused.json).message).toContain('no closing bracket here');
    expect(await logOf('pr-6')).toEqual(before);
  });
});
