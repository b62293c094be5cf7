import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/events/sha256.js';
import { sshEd25519Text } from '../../src/events/ssh-public-key.js';
import { keysOf, parseAllowedSigners } from '../../src/signing/allowed-signers.js';
import { encodeHead } from '../../src/store/log-format.js';
import { cli } from '../support/cli.js';
import { makeRepo, type TestRepo, tempDir } from '../support/git-repo.js';

// Attestations with real keys made by ssh-keygen, a real ssh-agent and real git repositories.

type Key = Readonly<{ file: string; pub: string; fingerprint: string }>;

const keygen = (dir: string, name: string, type = 'ed25519', passphrase = ''): Key => {
  const file = path.join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', passphrase, '-C', `${name}@example.com`, '-f', file]);
  const pub = readFileSync(`${file}.pub`, 'utf8').trim();
  const fingerprint =
    execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? '';
  return { file, pub, fingerprint };
};

const agents: string[] = [];
afterAll(() => {
  for (const pid of agents) spawnSync('kill', [pid]);
});

/** A real ssh-agent holding `keys`: its socket, for SSH_AUTH_SOCK. */
const agentWith = (dir: string, ...keys: Key[]): string => {
  const socket = path.join(dir, 'agent.sock');
  const out = execFileSync('ssh-agent', ['-a', socket, '-s'], { encoding: 'utf8' });
  const pid = /SSH_AGENT_PID=(\d+)/.exec(out)?.[1];
  if (pid !== undefined) agents.push(pid);
  for (const key of keys)
    execFileSync('ssh-add', ['-q', key.file], { env: { ...process.env, SSH_AUTH_SOCK: socket } });
  return socket;
};

/**
 * A repository with one commit (or the history `history` makes, HEAD its last commit), a run on it
 * converged at round 1, and a store beside it.
 */
const convergedRun = async (
  history = (repo: TestRepo) => {
    repo.write('src/a.js', 'open()\n');
    return repo.commitAll('first');
  },
) => {
  const repo = makeRepo();
  const commit = history(repo);
  const dir = tempDir('clearance-attest-');
  const store = path.join(dir, 'store');
  const run = (...args: string[]) => cli(['--dir', store, ...args]);
  expect((await run('open', 'pr-1', '--repo', repo.dir)).code).toBe(0);
  const inputSha = (await run('status', 'pr-1', '--json')).json.inputSha as string;
  const report = path.join(dir, 'r1.json');
  writeFileSync(report, JSON.stringify({ runId: 'pr-1', round: 1, inputSha, completed: true }));
  expect((await run('record', 'pr-1', '--report', report)).code).toBe(0);
  const ci = keygen(dir, 'ci');
  const allowed = path.join(dir, 'allowed_signers');
  writeFileSync(allowed, `ci@example.com namespaces="clearance" ${ci.pub}\n`);
  return { repo, commit, dir, store, run, ci, allowed };
};

const reasonOf = (r: { json: Record<string, unknown> }) =>
  ((r.json.error as { details?: { reason?: string } } | undefined)?.details?.reason ?? null) as string | null;

describe('clearance attest', () => {
  it('signs an in-toto Statement v1 in a DSSE envelope, the same bytes every time, from a key file or the agent', async () => {
    const { dir, run, ci, commit } = await convergedRun();
    const first = await run('attest', 'pr-1', '--key', ci.file);
    const again = await run('attest', 'pr-1', '--key', ci.file);
    expect(first.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const socket = agentWith(dir, ci);
    const viaAgent = await cli(['--dir', path.join(dir, 'store'), 'attest', 'pr-1', '--key', 'agent'], {
      env: { SSH_AUTH_SOCK: socket },
    });
    expect(viaAgent.stdout).toBe(first.stdout);
    const envelope = JSON.parse(first.stdout) as {
      payload: string;
      payloadType: string;
      signatures: Array<{ keyid: string }>;
    };
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    expect(envelope.signatures).toEqual([{ keyid: ci.fingerprint, sig: expect.any(String) }]);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [{ name: 'git-commit', digest: { gitCommit: commit } }, { name: 'git-tree' }],
      predicateType: 'https://clearance-dev.github.io/attestations/review/v1',
      predicate: { runId: 'pr-1', verdict: 'converged', round: 1, policy: { name: 'default' } },
    });
    // the predicate's schema is published, and the statement meets it
    const schema = await run('schema', 'attestation', '--json');
    expect(schema.json).toMatchObject({ ok: true, schema: 'attestation' });
  });

  it('takes an encrypted OpenSSH key with CLEARANCE_KEY_PASSPHRASE, a PKCS#8 PEM, and refuses what cannot sign', async () => {
    const { dir, store } = await convergedRun();
    const locked = keygen(dir, 'locked', 'ed25519', 'secret words');
    const attest = (key: string, env: Record<string, string> = {}) =>
      cli(['--dir', store, 'attest', 'pr-1', '--key', key, '--json'], { env });
    expect((await attest(locked.file, { CLEARANCE_KEY_PASSPHRASE: 'secret words' })).json).toMatchObject({
      ok: true,
      keyid: locked.fingerprint,
    });
    const noPassphrase = await attest(locked.file);
    expect([noPassphrase.code, (noPassphrase.json.error as { code: string }).code]).toEqual([
      2,
      'key-unusable',
    ]);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const pem = path.join(dir, 'key.pem');
    writeFileSync(pem, privateKey.export({ format: 'pem', type: 'pkcs8' }));
    const fromPem = await attest(pem);
    const raw = publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    expect(fromPem.json.keyid).toBe(
      execFileSync('ssh-keygen', ['-lf', '-'], { input: `${sshEd25519Text(raw)}\n`, encoding: 'utf8' }).split(
        ' ',
      )[1],
    );
    const rsa = keygen(dir, 'rsa', 'rsa');
    for (const [key, said] of [
      [rsa.file, /only Ed25519 keys sign here/],
      [`${locked.file}.pub`, /it is a public key/],
      [path.join(dir, 'nothing'), /cannot read it/],
      ['agent', /SSH_AUTH_SOCK is not set/],
    ] as const) {
      const refused = await cli(['--dir', store, 'attest', 'pr-1', '--key', key, '--json'], {
        env: { SSH_AUTH_SOCK: '' },
      });
      expect([refused.code, (refused.json.error as { code: string }).code], key).toEqual([2, 'key-unusable']);
      expect((refused.json.error as { message: string }).message).toMatch(said);
    }
    // an agent holding two keys needs one named
    const socket = agentWith(dir, keygen(dir, 'one'), keygen(dir, 'two'));
    const two = await cli(['--dir', store, 'attest', 'pr-1', '--key', 'agent', '--json'], {
      env: { SSH_AUTH_SOCK: socket },
    });
    expect((two.json.error as { message: string }).message).toMatch(/holds 2 Ed25519 keys: name one/);
    const named = await cli(['--dir', store, 'attest', 'pr-1', '--key', 'agent:two@example.com', '--json'], {
      env: { SSH_AUTH_SOCK: socket },
    });
    expect(named.json.ok).toBe(true);
  });
});

describe('clearance attest --verify', () => {
  it('holds for the right signer, commit and log; names the reason otherwise', async () => {
    const { dir, run, ci, allowed, repo, commit } = await convergedRun();
    const file = path.join(dir, 'att.json');
    expect((await run('attest', 'pr-1', '--key', ci.file, '--out', file)).code).toBe(0);
    const verify = (...args: string[]) => run('attest', '--verify', file, ...args, '--json');
    const good = await verify(
      '--allowed-signers',
      allowed,
      '--principal',
      'ci@example.com',
      '--commit',
      'HEAD',
      '--repo',
      repo.dir,
      'pr-1',
    );
    expect([good.code, good.json]).toEqual([
      0,
      expect.objectContaining({ ok: true, valid: true, runId: 'pr-1', verdict: 'converged', commit }),
    ]);
    // a public key alone will do; an exported log will do
    const exported = path.join(dir, 'pr-1.jsonl');
    writeFileSync(exported, (await run('export', 'pr-1')).stdout);
    expect((await verify('--key', `${ci.file}.pub`, '--log', exported)).code).toBe(0);
    // another principal, another namespace, another key: signer
    expect(reasonOf(await verify('--allowed-signers', allowed, '--principal', 'mallory@example.com'))).toBe(
      'signer',
    );
    const gitOnly = path.join(dir, 'git_signers');
    writeFileSync(gitOnly, `ci@example.com namespaces="git" ${ci.pub}\n`);
    expect(reasonOf(await verify('--allowed-signers', gitOnly, '--principal', 'ci@example.com'))).toBe(
      'signer',
    );
    const other = keygen(dir, 'other');
    expect(reasonOf(await verify('--key', `${other.file}.pub`))).toBe('signer');
    // another commit: subject
    repo.write('src/a.js', 'open()\nclose()\n');
    repo.commitAll('second');
    expect(reasonOf(await verify('--key', `${ci.file}.pub`, '--commit', 'HEAD', '--repo', repo.dir))).toBe(
      'subject',
    );
    // the payload changed after signing: signature
    const envelope = JSON.parse(readFileSync(file, 'utf8')) as { payload: string };
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    statement.predicate.verdict = 'converged';
    statement.predicate.round = 9;
    writeFileSync(
      file,
      JSON.stringify({ ...envelope, payload: Buffer.from(JSON.stringify(statement)).toString('base64') }),
    );
    expect(reasonOf(await verify('--key', `${ci.file}.pub`))).toBe('signature');
    writeFileSync(file, '{"not":"an envelope"}');
    expect(reasonOf(await verify('--key', `${ci.file}.pub`))).toBe('envelope');
  });

  it('still holds after the log grew, and catches a consistent rewrite of it: head', async () => {
    const { dir, store, run, ci } = await convergedRun();
    const file = path.join(dir, 'att.json');
    await run('attest', 'pr-1', '--key', ci.file, '--out', file);
    const verify = () => run('attest', '--verify', file, '--key', `${ci.file}.pub`, 'pr-1', '--json');
    const log = path.join(store, 'runs', 'pr-1.jsonl');
    const original = readFileSync(log, 'utf8');
    // rewritten the way a store writer would, chain and head anchor recomputed: verify cannot tell,
    // the attestation can
    const rewrites: ReadonlyArray<readonly [string, (lines: Array<Record<string, unknown>>) => void]> = [
      [
        'a looser policy',
        (ls) => {
          (ls[0] as { data: { policy: { maxRounds: number } } }).data.policy.maxRounds = 9;
        },
      ],
      [
        'another author',
        (ls) => {
          (ls[2] as { by: string }).by = 'someone else';
        },
      ],
      [
        'another time',
        (ls) => {
          (ls[1] as { at: string }).at = '2020-01-01T00:00:00.000Z';
        },
      ],
      [
        'another input',
        (ls) => {
          (ls[1] as { data: { touchedFiles: string[] } }).data.touchedFiles = ['other.js'];
        },
      ],
      [
        'the last line dropped',
        (ls) => {
          ls.pop();
        },
      ],
    ];
    for (const [what, rewrite] of rewrites) {
      const lines = original
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      rewrite(lines);
      let prev = '0'.repeat(64);
      const rewritten = lines.map((l, i) => {
        const line = JSON.stringify({ ...l, seq: i + 1, prev });
        prev = sha256Hex(line);
        return line;
      });
      writeFileSync(log, `${rewritten.join('\n')}\n`);
      writeFileSync(path.join(store, 'runs', 'pr-1.head'), encodeHead({ seq: lines.length, hash: prev }));
      rmSync(path.join(store, 'runs', 'pr-1.fold'), { force: true });
      expect((await run('verify', 'pr-1')).code, what).toBe(0);
      const caught = await verify();
      expect([caught.code, reasonOf(caught)], what).toEqual([1, 'head']);
    }
    // the original log, grown by a capture after the attestation: the attested prefix still holds
    writeFileSync(log, original);
    const lines = original.trimEnd().split('\n');
    writeFileSync(
      path.join(store, 'runs', 'pr-1.head'),
      encodeHead({ seq: lines.length, hash: sha256Hex(lines.at(-1) ?? '') }),
    );
    rmSync(path.join(store, 'runs', 'pr-1.fold'), { force: true });
    expect((await run('verify', 'pr-1')).code).toBe(0);
    expect((await verify()).json).toMatchObject({ ok: true, log: { appendedSince: 0 } });
  });

  it('an attestation of an open run still holds once later rounds are appended: the attested prefix is what is checked', async () => {
    const { dir, store, ci } = await convergedRun();
    const run = (...args: string[]) => cli(['--dir', store, ...args]);
    await run('open', 'pr-2', '--input-sha', 'a'.repeat(40));
    const report = path.join(dir, 'open.json');
    const finding = {
      file: 'src/a.js',
      line: 1,
      category: 'c',
      summary: 's',
      severity: 'major',
      confirmed: true,
      evidence: 'e',
    };
    writeFileSync(
      report,
      JSON.stringify({
        runId: 'pr-2',
        round: 1,
        inputSha: 'a'.repeat(40),
        completed: true,
        candidates: [finding],
      }),
    );
    await run('record', 'pr-2', '--report', report);
    const file = path.join(dir, 'open.att.json');
    await run('attest', 'pr-2', '--key', ci.file, '--out', file);
    expect((await run('capture', 'pr-2', '--input-sha', 'b'.repeat(40))).code).toBe(0);
    const grown = await run('attest', '--verify', file, '--key', `${ci.file}.pub`, 'pr-2', '--json');
    expect(grown.json).toMatchObject({
      ok: true,
      verdict: 'open',
      log: { verdict: 'open', appendedSince: 1 },
    });
  });
});

describe('gate --attest and audit', () => {
  it('writes the approval as a git note; audit says reviewed by identity, by tree after a squash, unreviewed, invalid', async () => {
    const { run, ci, allowed, repo, commit } = await convergedRun();
    const gated = await run('gate', 'pr-1', '--repo', repo.dir, '--attest', '--key', ci.file, '--json');
    expect(gated.json).toMatchObject({
      ok: true,
      approved: true,
      attestation: { commit, ref: 'refs/notes/clearance' },
    });
    expect(repo.git('notes', '--ref=clearance', 'list', commit)).not.toBe('');
    const audit = (range: string) =>
      run('audit', range, '--repo', repo.dir, '--allowed-signers', allowed, '--json');
    const one = await audit(commit);
    expect([one.code, (one.json.commits as Array<{ status: string; match: string }>)[0]]).toEqual([
      0,
      expect.objectContaining({
        status: 'reviewed',
        match: 'identity',
        attested: expect.objectContaining({ runId: 'pr-1' }),
      }),
    ]);
    // the approved commit squashed onto main: a new commit with the same tree
    repo.git('checkout', '-q', '-b', 'main-copy', `${commit}`);
    repo.git('checkout', '-q', '--orphan', 'release');
    repo.git('commit', '-q', '-m', 'squashed');
    const squashed = repo.git('rev-parse', 'HEAD').trim();
    repo.write('src/b.js', 'other\n');
    const later = repo.commitAll('nobody reviewed this');
    const audited = await audit(`${squashed}~0^!`);
    expect((audited.json.commits as Array<{ status: string; match: string }>)[0]).toMatchObject({
      status: 'reviewed',
      match: 'tree',
    });
    const mixed = await audit(`${squashed}^!`);
    expect(mixed.code).toBe(0);
    const withLater = await run('audit', later, '--repo', repo.dir, '--allowed-signers', allowed, '--json');
    expect([withLater.code, withLater.json.unreviewed]).toEqual([1, 1]);
    // a note that does not verify: invalid, with the reason
    repo.git(
      'notes',
      '--ref=clearance',
      'add',
      '-f',
      '-m',
      '{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"x","sig":"AAAA"}]}',
      later,
    );
    const invalid = await run('audit', later, '--repo', repo.dir, '--allowed-signers', allowed, '--json');
    expect((invalid.json.commits as Array<{ status: string; reason: string }>)[0]).toMatchObject({
      status: 'invalid',
      reason: 'signer',
    });
  });
});

describe('gate --base --attest and audit: reviewed by patch', () => {
  it('signs the rebased commit, naming the reviewed one and the patch; audit says reviewed by patch, and verify holds', async () => {
    const {
      repo,
      dir,
      run,
      ci,
      allowed,
      commit: reviewed,
    } = await convergedRun((made) => {
      made.write('src/a.js', 'open()\n');
      made.commitAll('base');
      made.git('checkout', '-q', '-b', 'feature');
      made.write('src/a.js', 'open()\nclose()\n');
      return made.commitAll('close it');
    });
    // main moves on, and the branch is rebased onto it: the same patch on a new base
    repo.git('checkout', '-q', 'main');
    repo.write('src/b.js', 'other\n');
    repo.commitAll('main moves on');
    repo.git('checkout', '-q', 'feature');
    repo.git('rebase', '-q', 'main');
    const head = repo.git('rev-parse', 'HEAD').trim();
    expect(head).not.toBe(reviewed);

    const gated = await run(
      'gate',
      'pr-1',
      '--repo',
      repo.dir,
      '--base',
      'main',
      '--attest',
      '--key',
      ci.file,
      '--json',
    );
    expect(gated.json).toMatchObject({
      ok: true,
      boundBy: 'patch',
      byPatch: { commit: head, reviewed },
      attestation: { commit: head, ref: 'refs/notes/clearance' },
    });
    // the note is on the approved commit, not on the reviewed one
    expect(repo.git('notes', '--ref=clearance', 'list').trim().split(' ')[1]).toBe(head);
    const note = repo.git('notes', '--ref=clearance', 'show', head);
    const statement = JSON.parse(
      Buffer.from((JSON.parse(note) as { payload: string }).payload, 'base64').toString('utf8'),
    );
    expect(statement.subject).toEqual([
      { name: 'git-commit', digest: { gitCommit: head } },
      { name: 'git-tree', digest: { gitTree: repo.git('rev-parse', 'HEAD^{tree}').trim() } },
    ]);
    expect(statement.predicate).toMatchObject({
      verdict: 'converged',
      reviewed: { commit: reviewed },
      byPatch: {
        commit: head,
        base: repo.git('rev-parse', 'main').trim(),
        patchId: (gated.json.byPatch as { patchId: string }).patchId,
      },
    });

    const audited = await run(
      'audit',
      `${head}^!`,
      '--repo',
      repo.dir,
      '--allowed-signers',
      allowed,
      '--json',
    );
    expect([audited.code, (audited.json.commits as Array<Record<string, unknown>>)[0]]).toEqual([
      0,
      expect.objectContaining({
        commit: head,
        status: 'reviewed',
        match: 'patch',
        message: expect.stringMatching(
          new RegExp(`^reviewed by patch: a converged review of commit ${reviewed}`),
        ),
      }),
    ]);
    const text = await run('audit', `${head}^!`, '--repo', repo.dir, '--allowed-signers', allowed);
    expect(text.stdout).toMatch(/reviewed \(patch\)/);
    // the signed statement holds against the commit it is about and the run's log folded again
    const noteFile = path.join(dir, 'note.json');
    writeFileSync(noteFile, note);
    const verified = await run(
      'attest',
      'pr-1',
      '--verify',
      noteFile,
      '--allowed-signers',
      allowed,
      '--principal',
      'ci@example.com',
      '--commit',
      head,
      '--repo',
      repo.dir,
      '--json',
    );
    expect(verified.json).toMatchObject({ ok: true, valid: true, verdict: 'converged', commit: head });
  });
});

describe('allowed_signers, read as ssh-keygen reads it', () => {
  it('lets a principal sign in the clearance namespace exactly when ssh-keygen -Y verify does', () => {
    const dir = tempDir('clearance-signers-');
    const [a, b, c] = [keygen(dir, 'a'), keygen(dir, 'b'), keygen(dir, 'c')];
    const text = [
      '# comment line',
      `ada@example.com,ops@example.com namespaces="clearance,git" ${a.pub}`,
      `bob@example.com namespaces="git" ${b.pub}`,
      `*@team.example,!eve@team.example ${c.pub} a comment`,
      '',
    ].join('\n');
    const file = path.join(dir, 'allowed_signers');
    writeFileSync(file, text);
    const signers = parseAllowedSigners(text);
    const principals = [
      'ada@example.com',
      'ops@example.com',
      'bob@example.com',
      'x@team.example',
      'eve@team.example',
    ];
    for (const key of [a, b, c]) {
      writeFileSync(`${key.file}.msg`, 'x');
      execFileSync('ssh-keygen', ['-q', '-Y', 'sign', '-n', 'clearance', '-f', key.file, `${key.file}.msg`]);
      const ours = signers.find((s) => s.key?.text === key.pub.split(' ').slice(0, 2).join(' '))?.key ?? null;
      for (const principal of principals) {
        const theirs =
          spawnSync(
            'ssh-keygen',
            ['-Y', 'verify', '-f', file, '-I', principal, '-n', 'clearance', '-s', `${key.file}.msg.sig`],
            { input: 'x' },
          ).status === 0;
        const mine =
          ours !== null && keysOf(signers, principal, 'clearance').some((k) => k.keyid === ours.keyid);
        expect(mine, `${principal} with ${path.basename(key.file)}`).toBe(theirs);
      }
    }
  });
});
