import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { candidate, idOf, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { tempDir } from '../support/git-repo.js';

// Rulings only a key holder can make: under a policy that pins signers, `rule` and `extend` carry
// an Ed25519 signature by the named person's key, and the fold refuses anything else.

const keygen = (dir: string, name: string): { file: string; pub: string } => {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', name, '-f', file]);
  return { file, pub: readFileSync(`${file}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ') };
};

const blockedRun = async () => {
  const dir = tempDir('clearance-signed-');
  const ada = keygen(dir, 'ada');
  const policy = path.join(dir, 'policy.json');
  writeFileSync(
    policy,
    JSON.stringify({
      name: 'signed',
      maxRounds: 1,
      severities: { major: { blocks: true } },
      signers: [{ principal: 'Ada Lovelace', key: ada.pub }],
    }),
  );
  const run = (...args: string[]) => cli(['--dir', dir, ...args, '--json']);
  expect((await run('open', 'r', '--policy-file', policy, '--input-sha', sha('A'))).code).toBe(0);
  const r1 = path.join(dir, 'r1.json');
  writeFileSync(r1, JSON.stringify(report(1, 'A', { runId: 'r', candidates: [candidate()] })));
  expect((await run('record', 'r', '--report', r1)).json).toMatchObject({ status: 'blocked' });
  return { dir, ada, run, log: path.join(dir, 'runs', 'r.jsonl') };
};

const codeOf = (r: { json: Record<string, unknown> }) =>
  (r.json.error as { code?: string } | undefined)?.code;

describe('signed rulings', () => {
  it('refuses an unsigned ruling, one signed with another key, and one by someone not a signer; the log unchanged', async () => {
    const { dir, run, log } = await blockedRun();
    const mallory = keygen(dir, 'mallory');
    const id = idOf(candidate()).slice(0, 12);
    const ruling = ['rule', 'r', id, '--withdrawn', '--why', 'accepted risk'];
    const before = readFileSync(log);
    for (const [who, key] of [
      ['Ada Lovelace', undefined],
      ['Ada Lovelace', mallory.file],
      ['Mallory', mallory.file],
    ] as const) {
      const refused = await run(...ruling, '--by', who, ...(key === undefined ? [] : ['--key', key]));
      expect([refused.code, codeOf(refused)], `${who} ${key ?? 'unsigned'}`).toEqual([1, 'unsigned-ruling']);
      expect(readFileSync(log)).toEqual(before);
    }
    const extension = await run('extend', 'r', '--rounds', '1', '--why', 'one more', '--by', 'Ada Lovelace');
    expect(codeOf(extension)).toBe('unsigned-ruling');
    expect(readFileSync(log)).toEqual(before);
  });

  it("accepts Ada's signed ruling, which converges the run, and an attestation names the key that signed it", async () => {
    const { ada, run } = await blockedRun();
    const id = idOf(candidate());
    const ruled = await run(
      'rule',
      'r',
      id.slice(0, 12),
      '--withdrawn',
      '--why',
      'accepted risk',
      '--by',
      'Ada Lovelace',
      '--key',
      ada.file,
    );
    expect(ruled.json).toMatchObject({
      ok: true,
      findingId: id,
      status: 'converged',
      convergedBy: 'Ada Lovelace',
    });
    const attested = await run('attest', 'r', '--key', ada.file);
    const statement = JSON.parse(
      Buffer.from((attested.json.envelope as { payload: string }).payload, 'base64').toString('utf8'),
    );
    const fingerprint = execFileSync('ssh-keygen', ['-lf', `${ada.file}.pub`], { encoding: 'utf8' }).split(
      ' ',
    )[1];
    expect(statement.predicate.rulings).toEqual([
      expect.objectContaining({ by: 'Ada Lovelace', signedBy: fingerprint }),
    ]);
  });

  it('a signed extension, then a signed ruling after another round', async () => {
    const { dir, ada, run } = await blockedRun();
    expect(
      (
        await run(
          'extend',
          'r',
          '--rounds',
          '1',
          '--why',
          'one more',
          '--by',
          'Ada Lovelace',
          '--key',
          ada.file,
        )
      ).json,
    ).toMatchObject({
      status: 'open',
      maxRounds: 2,
    });
    await run('capture', 'r', '--input-sha', sha('B'), '--touched', candidate().file);
    const r2 = path.join(dir, 'r2.json');
    writeFileSync(
      r2,
      JSON.stringify(
        report(2, 'B', {
          runId: 'r',
          decisions: [{ id: idOf(candidate()), status: 'fixed', evidence: 'closed' }],
        }),
      ),
    );
    expect((await run('record', 'r', '--report', r2)).json).toMatchObject({ status: 'converged' });
  });

  it('refuses a policy whose signer key is not an Ed25519 public key, or whose principal is no name', async () => {
    const dir = tempDir('clearance-signed-');
    const policy = path.join(dir, 'p.json');
    for (const signers of [
      [{ principal: 'Ada', key: 'ssh-rsa AAAAB3NzaC1yc2E' }],
      [{ principal: 'Ada\nBoss', key: keygen(dir, 'k').pub }],
      [],
    ]) {
      writeFileSync(
        policy,
        JSON.stringify({ name: 'p', maxRounds: 1, severities: { major: { blocks: true } }, signers }),
      );
      const opened = await cli(['--dir', dir, 'open', 'x', '--policy-file', policy, '--json']);
      expect([opened.code, codeOf(opened)], JSON.stringify(signers)).toEqual([1, 'invalid-policy']);
    }
  });
});
