import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Candidate, findingId, PRESETS } from '../../src/index.js';
import { candidate, decision, report, sha } from '../support/builders.js';
import { runInProcess } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

/**
 * A simulated runaway, as other loops report them (47 rounds, 23 of them on unchanged code): the
 * author changes the code once, then the loop keeps asking the reviewer about the same bytes, and
 * the reviewer finds one new nit or minor every time. Under `converging` the loop cannot run away:
 * with the default `sameInputRounds` (0) it cannot go past round 2, the last on changed bytes,
 * without a recorded `--same-input`, and even that is refused; every refusal leaves the log as it
 * was. Where a policy does allow re-reviews, nothing the reviewer said is lost: each candidate is a
 * finding or deferred, and the run still ends blocked at its cap with the major open.
 */

const LEAK = candidate({ severity: 'major' });
/** round n's one new small thing: a nit in odd rounds, a minor in even ones */
const smallThing = (n: number): Candidate =>
  candidate({
    file: `src/part${n}.js`,
    line: n,
    category: 'maintainability',
    summary: `small thing number ${n}`,
    severity: n % 2 === 1 ? 'nit' : 'minor',
    evidence: `seen at src/part${n}.js:${n}`,
  });

const loop = async (policy: object) => {
  const dir = await tempDir();
  const cli = (...args: string[]) => runInProcess(['--dir', dir, ...args]);
  const log = path.join(dir, 'runs', 'pr.jsonl');
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, JSON.stringify(value));
    return at;
  };
  const policyFile = await write('policy.json', policy);
  expect((await cli('open', 'pr', '--policy-file', policyFile, '--input-sha', sha('A'))).code).toBe(0);
  const reviewerSays = async (n: number, input: string, decisions: ReturnType<typeof decision>[] = []) =>
    cli(
      'record',
      'pr',
      '--report',
      await write(
        `r${n}.json`,
        report(n, input, {
          runId: 'pr',
          reviewer: 'looping-agent',
          candidates: n === 1 ? [LEAK, smallThing(1)] : [smallThing(n)],
          decisions,
        }),
      ),
    );
  expect((await reviewerSays(1, 'A')).code).toBe(0);
  // the author's one change: the leak's file; the reviewer keeps the leak open
  expect((await cli('capture', 'pr', '--input-sha', sha('B'), '--touched', LEAK.file)).code).toBe(0);
  expect((await reviewerSays(2, 'B', [decision(LEAK, 'open', 'the abort path still leaks')])).code).toBe(0);
  return { cli, log, reviewerSays };
};

const status = async (cli: (...args: string[]) => ReturnType<typeof runInProcess>) =>
  (await cli('status', 'pr', '--json')).json as {
    status: string;
    round: number;
    blockedReason: string | null;
    counts: { deferred: number };
    findings: ReadonlyArray<{ summary: string }>;
  };

describe('a runaway loop on unchanged bytes', () => {
  it('under converging with the default sameInputRounds, rounds 3 to 12 are refused and the log never moves', async () => {
    const { cli, log, reviewerSays } = await loop(PRESETS.converging);
    const before = await readFile(log);
    for (let n = 3; n <= 12; n++) {
      const unchanged = await cli('capture', 'pr', '--input-sha', sha('B'), '--json');
      expect(unchanged.code).toBe(1);
      expect(unchanged.json).toMatchObject({ ok: false, error: { code: 'unchanged-input' } });
      expect(unchanged.stdout).toContain('is the one round 2 reviewed');
      const said = await cli(
        'capture',
        'pr',
        '--input-sha',
        sha('B'),
        '--same-input',
        '--reason',
        'once more',
        '--json',
      );
      expect(said.code).toBe(1);
      expect(said.json).toMatchObject({ ok: false, error: { code: 'same-input-limit' } });
      // the loop asks for round 3 again: the report has no captured input to bind to, refused too
      const reviewed = await reviewerSays(3, 'B');
      expect(reviewed.code).toBe(1);
      expect(reviewed.stderr).toContain('no-revision');
      expect(await readFile(log)).toEqual(before);
    }
    const after = await status(cli);
    expect(after).toMatchObject({ status: 'open', round: 2 });
    // what the two recorded rounds said: round 1's nit and round 2's minor are findings
    expect(after.findings.map((f) => f.summary)).toEqual([
      LEAK.summary,
      'small thing number 1',
      'small thing number 2',
    ]);
    expect(after.counts.deferred).toBe(0);
  });

  it('where re-reviews are allowed and recorded, every candidate is a finding or deferred, and the cap still blocks', async () => {
    const { cli, reviewerSays } = await loop({
      ...PRESETS.converging,
      name: 'converging-patient',
      maxRounds: 12,
      sameInputRounds: 10,
    });
    for (let n = 3; n <= 12; n++) {
      const again = await cli(
        'capture',
        'pr',
        '--input-sha',
        sha('B'),
        '--same-input',
        '--reason',
        `re-review ${n}`,
      );
      expect(again.code).toBe(0);
      expect((await reviewerSays(n, 'B')).code).toBe(0);
    }
    const after = await status(cli);
    expect(after).toMatchObject({ status: 'blocked', blockedReason: 'cap', round: 12 });
    const explained = (await cli('explain', 'pr', '--json')).json as {
      deferred: ReadonlyArray<{
        id: string;
        round: number;
        reason: string;
        reviewers: string[];
        evidence: string;
      }>;
      sameInput: { rounds: number; allowed: number; each: Array<{ round: number; reason: string }> };
    };
    expect(explained.sameInput).toMatchObject({ rounds: 10, allowed: 10 });
    expect(explained.sameInput.each.map((r) => r.round)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    const found = new Set(after.findings.map((f) => f.summary));
    const deferred = new Map(explained.deferred.map((d) => [d.id, d]));
    for (let n = 1; n <= 12; n++) {
      const thing = smallThing(n);
      const kept = found.has(thing.summary) || deferred.has(findingId(thing));
      expect(kept, `round ${n}'s ${thing.severity} is a finding or deferred`).toBe(true);
    }
    // nit after round 1 and minor after round 2 are deferred, each with who said it and their evidence
    expect(explained.deferred.map((d) => d.round)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const d of explained.deferred) {
      expect(d).toMatchObject({ reason: 'until-round', reviewers: ['looping-agent'] });
      expect(d.evidence).toMatch(/^seen at src\/part\d+\.js/);
    }
  });
});

describe('capture --same-input at the door', () => {
  it('needs --reason, a reason needs --same-input, and the reason is one line: each refused, the log unchanged', async () => {
    const { cli, log } = await loop({ ...PRESETS.converging, name: 'retry-once', sameInputRounds: 1 });
    const before = await readFile(log);
    const noReason = await cli('capture', 'pr', '--input-sha', sha('B'), '--same-input');
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--same-input needs --reason');
    const noFlag = await cli('capture', 'pr', '--input-sha', sha('B'), '--reason', 'why');
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain('--reason goes with --same-input');
    const twoLines = await cli(
      'capture',
      'pr',
      '--input-sha',
      sha('B'),
      '--same-input',
      '--reason',
      'a\n::error::b',
    );
    expect(twoLines.code).toBe(1);
    expect(twoLines.stderr).toContain('[invalid-text]');
    const blank = await cli('capture', 'pr', '--input-sha', sha('B'), '--same-input', '--reason', '  ');
    expect(blank.code).toBe(1);
    expect(blank.stderr).toContain('[empty-field]');
    // new bytes are no same-input round
    const changed = await cli('capture', 'pr', '--input-sha', sha('C'), '--same-input', '--reason', 'why');
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('[inconsistent-event]');
    expect(await readFile(log)).toEqual(before);
    const ok = await cli(
      'capture',
      'pr',
      '--input-sha',
      sha('B'),
      '--same-input',
      '--reason',
      'the agent crashed',
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('the same input again, because: the agent crashed');
  });
});
