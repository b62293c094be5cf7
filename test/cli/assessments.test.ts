import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Candidate, findingId, type RoundReport } from '../../src/index.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/tmp.js';

/** A finder's candidate in the verifier form: an assessment instead of `confirmed`. */
const plausible = (over: Partial<Candidate> = {}): Candidate => {
  const { confirmed: _, ...c } = candidate(over);
  return { ...c, verdict: 'plausible', ...over };
};
const leak = plausible();
const race = plausible({ file: 'src/cache.js', summary: 'refresh races the reader' });
const key = (c: Candidate) => ({ file: c.file, category: c.category, summary: c.summary });

/** run-1 under a policy expecting a finder and a verifier, with a non-blocking pre-existing severity. */
const verifiedRun = async () => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args]);
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, name);
    await writeFile(at, JSON.stringify(value));
    return at;
  };
  const policy = await write('policy.json', {
    name: 'verified',
    maxRounds: 2,
    severities: { major: { blocks: true }, 'pre-existing': { blocks: false } },
    experts: ['finder', 'verifier'],
    plausible: 'blocks',
    preExistingSeverity: 'pre-existing',
  });
  await run('open', 'run-1', '--policy-file', policy, '--input-sha', sha('A'));
  await run(
    'contribute',
    'run-1',
    '--reviewer',
    'finder',
    '--report',
    await write('finder.json', report(1, 'A', { candidates: [leak, race] })),
  );
  /** The verifier hands in its assessments of the round's candidates, as one contribution. */
  const verify = async (verifications: RoundReport['verifications']) =>
    run(
      'contribute',
      'run-1',
      '--reviewer',
      'verifier',
      '--report',
      await write('v.json', report(1, 'A', { verifications })),
      '--json',
    );
  return { run, write, verify, log: path.join(dir, 'runs', 'run-1.jsonl') };
};

describe('verifier assessments from the command line', () => {
  it('a ruling that names no candidate handed in is refused, naming the field; the log is byte for byte as it was', async () => {
    const { verify, log } = await verifiedRun();
    const before = await readFile(log);
    const misspelt = await verify([
      { ...key(race), summary: 'refresh races', verdict: 'refuted', evidence: 'a lock' },
    ]);
    expect(misspelt.code).toBe(1);
    expect(misspelt.json.error).toMatchObject({ code: 'unknown-finding' });
    expect(misspelt.stderr + JSON.stringify(misspelt.json)).toMatch(
      /verifications\[0\] rules on src\/cache\.js/,
    );
    expect(await readFile(log)).toEqual(before);
  });

  it('a refuted candidate is dropped at the merge and shown, with its evidence, by explain and replay', async () => {
    const { run, verify } = await verifiedRun();
    const verifier = await verify([
      { ...key(race), verdict: 'refuted', evidence: 'the refresh holds the cache lock' },
      { ...key(leak), verdict: 'confirmed', evidence: 'lsof grows per abort' },
    ]);
    expect(verifier.code).toBe(0);
    const merged = await run('record', 'run-1', '--merge', '--json');
    expect(merged.code).toBe(0);
    expect(merged.json.opened).toEqual([findingId(leak)]);

    const explained = await run('explain', 'run-1', '--json');
    expect(explained.json.refuted).toEqual([
      expect.objectContaining({
        id: findingId(race),
        by: ['verifier'],
        evidence: 'the refresh holds the cache lock',
      }),
    ]);
    expect((await run('explain', 'run-1')).stdout).toMatch(
      /refuted in round 1, dropped: .* src\/cache\.js:10 refresh races the reader \(by verifier: the refresh holds the cache lock\)/,
    );
    const replay = await run('replay', 'run-1');
    expect(replay.stdout).toMatch(
      /contribution of verifier: 0 candidate\(s\), 0 decision\(s\), 2 verification\(s\)/,
    );
    expect(replay.stdout).toMatch(
      /refuted major .* src\/cache\.js by verifier: the refresh holds the cache lock/,
    );
  });

  it('a policy file with an unknown plausible rule is refused at open', async () => {
    const dir = await tempDir();
    const at = path.join(dir, 'policy.json');
    await writeFile(
      at,
      JSON.stringify({
        name: 'p',
        maxRounds: 1,
        severities: { major: { blocks: true } },
        plausible: 'maybe',
      }),
    );
    const opened = await cli([
      '--dir',
      dir,
      'open',
      'run-1',
      '--policy-file',
      at,
      '--input-sha',
      sha('A'),
      '--json',
    ]);
    expect(opened.code).not.toBe(0);
    expect(JSON.stringify(opened.json.error)).toMatch(/plausible/);
  });
});
