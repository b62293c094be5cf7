import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Candidate, findingId } from '../../src/index.js';
import { DisputeOutput, ExplainOutput, StatusRunOutput } from '../../src/operations/schemas/results.js';
import { cli } from '../support/cli.js';
import { linesOf, makeRepo, removeTempDirs, type TestRepo } from '../support/git-repo.js';

afterAll(removeTempDirs);

/**
 * Disputes and candidates refuted before, through the command line on a real git repository: the
 * captures are git's (a commit, the files it changed), the store is the repository's
 * `.git/clearance`, and every refusal leaves the log's bytes as they were.
 */

const leak: Candidate = {
  file: 'src/service.js',
  line: 2,
  category: 'correctness',
  summary: 'Connection handle is not closed when the request is aborted',
  severity: 'major',
  confirmed: true,
  evidence: 'abort a request mid-stream: lsof shows one more open socket per aborted request',
};
const LEAK = findingId(leak);

const ghost: Candidate = {
  file: 'src/cache.js',
  line: 7,
  category: 'correctness',
  summary: 'Cache entries never expire',
  severity: 'major',
  verdict: 'confirmed',
  evidence: 'entries from yesterday are served after the TTL',
};
const GHOST = findingId(ghost);

/** A repository with three files, committed, and a run opened on it; the round-1 commit. */
const opened = async () => {
  const repo = makeRepo();
  repo.write('src/service.js', linesOf('service', 20));
  repo.write('src/cache.js', linesOf('cache', 20));
  repo.write('src/other.js', linesOf('other', 20));
  repo.commitAll('first');
  const store = path.join(repo.dir, '.git', 'clearance');
  const run = (...args: string[]) => cli(['--by', 'driver', ...args], { cwd: repo.dir });
  const ok = async (...args: string[]) => {
    const r = await run(...args);
    expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    return r;
  };
  const file = async (name: string, value: unknown) => {
    const at = path.join(repo.dir, '..', `${path.basename(repo.dir)}-${name}`);
    await writeFile(at, JSON.stringify(value));
    return at;
  };
  await ok('open', 'pr-7', '--repo', repo.dir);
  const log = path.join(store, 'runs', 'pr-7.jsonl');
  /** record round `n`'s report on input `head`, which must be accepted; its --json result */
  const recorded = async (n: number, head: string, over: Record<string, unknown>) =>
    (await ok('record', 'pr-7', '--report', await file(`r${n}.json`, report(n, head, over)), '--json')).json;
  return { repo, run, ok, file, log, recorded };
};

/** A new commit that changes `file` only, captured from git for the next round; its input sha. */
const changeAndCapture = async (
  repo: TestRepo,
  ok: (...args: string[]) => Promise<unknown>,
  file: string,
  label: string,
): Promise<string> => {
  repo.write(file, `${linesOf(label, 20)}`);
  const commit = repo.commitAll(label);
  const captured = (await ok('capture', 'pr-7', '--json')) as { json: { capture: { inputSha: string } } };
  expect(captured.json.capture.inputSha).toBe(commit);
  return commit;
};

const report = (round: number, inputSha: string, over: Record<string, unknown> = {}) => ({
  runId: 'pr-7',
  round,
  inputSha,
  completed: true,
  candidates: [],
  decisions: [],
  ...over,
});

describe('disputes from the command line', () => {
  it('a blocking finding upheld over two disputes blocks the run before its cap, and a person rules it', async () => {
    const { repo, run, ok, file, log, recorded } = await opened();
    const head1 = repo.git('rev-parse', 'HEAD').trim();
    await ok('record', 'pr-7', '--report', await file('r1.json', report(1, head1, { candidates: [leak] })));

    // the author disputes it by a prefix, with one line of reasoning
    const reason = 'the pool closes the handle on abort: see pool.js:88';
    const disputed = await ok('dispute', 'pr-7', LEAK.slice(0, 8), '--reason', reason, '--json');
    expect(DisputeOutput.safeParse(disputed.json).success).toBe(true);
    expect(disputed.json).toMatchObject({ findingId: LEAK, round: 2, reason, alreadyRecorded: false });
    expect((await ok('dispute', 'pr-7', LEAK.slice(0, 8), '--reason', reason, '--json')).json).toMatchObject({
      alreadyRecorded: true,
      seq: null,
    });
    // a second reason, a reason of two lines, or none: refused, and the log is unchanged
    const before = await readFile(log);
    const again = await run('dispute', 'pr-7', LEAK.slice(0, 8), '--reason', 'another reason');
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('[duplicate-dispute]')]);
    const twoLines = await run('dispute', 'pr-7', LEAK.slice(0, 8), '--reason', 'one\ntwo');
    expect([twoLines.code, twoLines.stderr]).toEqual([1, expect.stringContaining('[invalid-text]')]);
    expect((await run('dispute', 'pr-7', LEAK.slice(0, 8))).code).toBe(2);
    expect(await readFile(log)).toEqual(before);

    // the feedback tells the author the dispute is waiting, and the reviewers that they must rule
    const brief = (await ok('feedback', 'pr-7')).stdout;
    expect(brief).toContain(`  - Disputed for round 2: ${reason}; awaiting the next round's ruling`);
    expect(brief).toContain('### Disputed: round 2 must rule on each');

    // round 2 touches another file only: the finding is untouched, yet the round must rule on it
    const head2 = await changeAndCapture(repo, ok, 'src/other.js', 'second');
    const beforeRound2 = await readFile(log);
    const silent = await run('record', 'pr-7', '--report', await file('r2-silent.json', report(2, head2)));
    expect(silent.code).toBe(1);
    expect(silent.stderr).toContain(
      `round 2 report has no decision for finding ${LEAK.slice(0, 12)} (src/service.js), which the author disputed`,
    );
    expect(silent.stderr).toContain('[undecided-dispute]');
    expect(await readFile(log)).toEqual(beforeRound2);
    const upheld = 'pool.js:88 runs on the success path only; an abort skips it';
    const r2 = await recorded(2, head2, { decisions: [{ id: LEAK, status: 'open', evidence: upheld }] });
    expect(r2).toMatchObject({ round: 2, status: 'open', disputesRuled: [{ id: LEAK, status: 'open' }] });

    // disputed again, upheld again in round 3 of 4: blocked early, reason disputed
    await ok('dispute', 'pr-7', LEAK, '--reason', 'an abort goes through pool.release too');
    const head3 = await changeAndCapture(repo, ok, 'src/other.js', 'third');
    const r3 = await recorded(3, head3, {
      decisions: [{ id: LEAK, status: 'open', evidence: 'release runs after the early return' }],
    });
    expect(r3).toMatchObject({ round: 3, status: 'blocked' });
    const status = await ok('status', 'pr-7', '--json');
    expect(StatusRunOutput.safeParse(status.json).success).toBe(true);
    expect(status.json).toMatchObject({
      status: 'blocked',
      round: 3,
      maxRounds: 4,
      blockedReason: 'disputed',
      stall: { round: 3, findings: [{ id: LEAK, why: 'disputed' }] },
    });
    expect((await ok('status', 'pr-7')).stdout).toContain(
      `blocked by a dispute at round 3, before the cap: ${LEAK.slice(0, 12)} (upheld over the author's disputes)`,
    );
    const explained = await ok('explain', 'pr-7', '--json');
    expect(ExplainOutput.safeParse(explained.json).success).toBe(true);
    expect(explained.json.disputes).toEqual([
      expect.objectContaining({ round: 2, reason, ruling: { round: 2, status: 'open', evidence: upheld } }),
      expect.objectContaining({ round: 3, ruling: expect.objectContaining({ round: 3, status: 'open' }) }),
    ]);
    const text = (await ok('explain', 'pr-7')).stdout;
    expect(text).toContain(
      `blocked early at round 3 of 4: disputed, finding ${LEAK.slice(0, 12)} upheld after 2 disputes by the author`,
    );
    expect(text).toContain(`disputed for round 2: ${reason}; upheld in round 2: ${upheld}`);
    const replay = (await ok('replay', 'pr-7')).stdout;
    expect(replay).toContain(`dispute of ${LEAK.slice(0, 12)} for round 2: ${reason}`);
    expect(replay).toContain(`dispute of ${LEAK.slice(0, 12)} upheld in round 2: ${upheld}`);
    const html = await ok('report', 'pr-7', '--html', '-');
    expect(html.stdout).toContain(
      `<dd class="dispute">for round 2: <span class="reason">${reason}</span>; upheld in round 2: <span class="evidence">${upheld}</span></dd>`,
    );
    expect((await run('gate', 'pr-7')).stderr).toContain(`blocked (disputed: finding ${LEAK.slice(0, 12)}`);
    expect((await run('dispute', 'pr-7', LEAK, '--reason', 'once more')).stderr).toContain('[run-final]');

    // a person rules on it: the run converges by that ruling
    const ruled = await ok(
      'rule',
      'pr-7',
      LEAK.slice(0, 12),
      '--withdrawn',
      '--why',
      'the author is right: pool.js:88',
      '--by',
      'Ada',
    );
    expect(ruled.stdout).toContain('converged by ruling of Ada');
    expect((await ok('status', 'pr-7', '--json')).json).toMatchObject({
      status: 'converged',
      blockedReason: null,
    });
  });
});

describe('a refuted finding stays refuted on unchanged code, from the command line', () => {
  it('offered again word for word on an untouched file it is kept as refuted before; with new evidence it is admitted', async () => {
    const { repo, ok, file, recorded } = await opened();
    const head1 = repo.git('rev-parse', 'HEAD').trim();
    // round 1 from a finder and a verifier who refutes the cache finding
    await ok(
      'contribute',
      'pr-7',
      '--reviewer',
      'finder',
      '--report',
      await file('f1.json', report(1, head1, { candidates: [leak, ghost] })),
    );
    const refutation = 'the TTL sweep in cache.js:40 drops them every minute';
    await ok(
      'contribute',
      'pr-7',
      '--reviewer',
      'verifier',
      '--report',
      await file(
        'v1.json',
        report(1, head1, {
          verifications: [
            {
              file: ghost.file,
              category: ghost.category,
              summary: ghost.summary,
              verdict: 'refuted',
              evidence: refutation,
            },
          ],
        }),
      ),
    );
    await ok('record', 'pr-7', '--merge');
    expect(
      ((await ok('findings', 'pr-7', '--json')).json.findings as Array<{ id: string }>).map((f) => f.id),
    ).toEqual([LEAK]);

    // round 2 changes the service only; the finder offers the cache finding again, word for word
    const head2 = await changeAndCapture(repo, ok, 'src/service.js', 'second');
    const r2 = await recorded(2, head2, {
      reviewer: 'finder',
      candidates: [ghost],
      decisions: [{ id: LEAK, status: 'open', evidence: 'still leaks on abort' }],
    });
    expect(r2).toMatchObject({
      round: 2,
      status: 'open',
      opened: [],
      refutedBefore: [{ id: GHOST, citation: 'src/cache.js:7', before: { round: 1, how: 'refuted' } }],
    });
    const findings = (await ok('findings', 'pr-7', '--json')).json.findings as Array<{ id: string }>;
    expect(findings.map((f) => f.id)).toEqual([LEAK]);
    const explained = await ok('explain', 'pr-7', '--json');
    expect(explained.json.refuted).toEqual([
      expect.objectContaining({ id: GHOST, round: 1, by: ['verifier'], evidence: refutation }),
      expect.objectContaining({
        id: GHOST,
        round: 2,
        by: ['finder'],
        evidence: refutation,
        claim: ghost.evidence,
        before: { round: 1, how: 'refuted' },
      }),
    ]);
    expect((await ok('explain', 'pr-7')).stdout).toContain(
      `refuted before, dropped again in round 2: ${GHOST.slice(0, 12)} [major] src/cache.js:7 Cache entries never expire (offered again by finder on unchanged code; refuted in round 1: ${refutation})`,
    );
    expect((await ok('replay', 'pr-7')).stdout).toContain(
      `refuted before: major ${GHOST.slice(0, 12)} src/cache.js offered again by finder, unchanged since it was refuted in round 1: ${refutation}`,
    );

    // round 3: still untouched, but the finder has something new to say: admitted
    const head3 = await changeAndCapture(repo, ok, 'src/service.js', 'third');
    const fresh = { ...ghost, evidence: 'the sweep stops when the clock goes backwards (NTP step)' };
    const r3 = await recorded(3, head3, {
      candidates: [fresh],
      decisions: [{ id: LEAK, status: 'fixed', evidence: 'closed in a finally block' }],
    });
    expect(r3).toMatchObject({ round: 3, status: 'open' });
    const after = (await ok('findings', 'pr-7', '--json')).json.findings as Array<{
      id: string;
      status: string;
    }>;
    expect(after.map((f) => [f.id, f.status])).toEqual([
      [LEAK, 'fixed'],
      [GHOST, 'open'],
    ]);
  });
});
