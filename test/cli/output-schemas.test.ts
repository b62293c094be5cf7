import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import Ajv2020Module from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { sshEd25519Text } from '../../src/events/ssh-public-key.js';
import { OUTPUT_NAMES } from '../../src/operations/schemas/index.js';
import { candidate, idOf as findingId, report } from '../support/builders.js';
import { makeRepo } from '../support/git-repo.js';
import { runInProcess } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

// Every command's real --json output, validated against the JSON Schema `clearance schema output`
// prints for it: the schemas are the contract, so a renamed or retyped field fails here.

// ajv is CommonJS: under NodeNext its class is the default export's `default`
const Ajv2020 = Ajv2020Module.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
const seen = new Set<string>();

const validate = async (name: string, output: Record<string, unknown> | undefined): Promise<void> => {
  expect(output, `${name} printed one JSON object`).toBeDefined();
  let check = validators.get(name);
  if (check === undefined) {
    const printed = await runInProcess(['schema', 'output', name, '--json']);
    expect(printed.code).toBe(0);
    check = ajv.compile(printed.json?.jsonSchema as object);
    validators.set(name, check);
  }
  const valid = check(output);
  expect(valid, `${name}: ${ajv.errorsText(check.errors)}\n${JSON.stringify(output)}`).toBe(true);
  seen.add(name);
};

/** Run a command with --json, expect its exit status, validate what it printed. */
/** The raw 32 bytes of the Ed25519 public key of a PEM private key file. */
const publicKeyOf = (file: string): Uint8Array =>
  createPublicKey(createPrivateKey(readFileSync(file, 'utf8')))
    .export({ format: 'der', type: 'spki' })
    .subarray(12);

const expectValid = async (name: string, argv: string[], code = 0): Promise<Record<string, unknown>> => {
  const result = await runInProcess([...argv, '--json']);
  expect(result.code, result.stdout + result.stderr).toBe(code);
  await validate(name, result.json);
  return result.json ?? {};
};

describe('clearance schema output', () => {
  it("validates every command's real --json output, successes and refusals alike", async () => {
    const dir = await tempDir();
    const g = ['--dir', dir, '--by', 'tester'];
    const file = async (name: string, value: unknown): Promise<string> => {
      const p = path.join(dir, name);
      await writeFile(p, typeof value === 'string' ? value : JSON.stringify(value));
      return p;
    };
    const repo = makeRepo();
    repo.write('src/service.js', 'open()\nread()\n');
    repo.commitAll('first');

    const opened = await expectValid('open', [
      ...g,
      'open',
      'r',
      '--repo',
      repo.dir,
      '--consent',
      'npm test',
    ]);
    const inputSha = (opened.capture as { inputSha: string }).inputSha;
    await expectValid('gate', [...g, 'gate', 'r'], 1);
    await expectValid('may', [...g, 'may', 'r', '--stage', 'planning']);
    await expectValid('stage', [...g, 'stage', 'r', 'planning', '--start']);
    await expectValid('stage', [
      ...g,
      'stage',
      'r',
      'planning',
      '--fail',
      'timed out',
      '--runner',
      'planner',
    ]);
    await runInProcess([...g, 'stage', 'r', 'planning', '--start']);
    const plan = await file('plan.json', '{"plan":"read service.js"}');
    const finish = ['--finish', '--output', plan, '--cost', 'usd=0.2', '--runner', 'planner'];
    await expectValid('stage', [...g, 'stage', 'r', 'planning', ...finish]);

    const major = candidate({ file: 'src/service.js', line: 1 });
    const r1 = await file('r1.json', report(1, 'A', { runId: 'r', inputSha, candidates: [major] }));
    const published = path.join(dir, 'published', 'round-1.json');
    await expectValid('publish', ['publish', published, '--report', r1]);
    await expectValid('wait', ['wait', published, '--run', 'r', '--round', '1', '--input-sha', inputSha]);
    const recorded = await expectValid('record', [...g, 'record', 'r', '--report', r1, '--partial']);
    const id = (recorded.opened as string[])[0] as string;

    for (const name of [
      'next',
      'findings',
      'replay',
      'explain',
      'feedback',
      'cost',
      'reproductions',
      'sarif',
    ]) {
      await expectValid(name, [...g, name, 'r']);
    }
    await expectValid('status', [...g, 'status', 'r']);
    await expectValid('status', [...g, 'status']);
    await expectValid('report', [...g, 'report', 'r', '--html', path.join(dir, 'report.html')]);
    await expectValid('verify', [...g, 'verify']);

    repo.write('src/service.js', 'open()\nread()\nclose()\n');
    repo.commitAll('close it');
    const captured = await expectValid('capture', [...g, 'capture', 'r']);
    const input2 = (captured.capture as { inputSha: string }).inputSha;
    const fixed = { id, status: 'fixed' as const, evidence: 'closed' };
    const r2 = await file('r2.json', report(2, 'B', { runId: 'r', inputSha: input2, decisions: [fixed] }));
    expect((await expectValid('record', [...g, 'record', 'r', '--report', r2])).status).toBe('converged');
    await expectValid('gate', [...g, 'gate', 'r']);
    // signed: the gate's attestation, the attestation itself, its check and the audit of the commit
    const key = path.join(dir, 'key.pem');
    await writeFile(key, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
    await expectValid('gate', [...g, 'gate', 'r', '--attest', '--key', key]);
    const attested = await expectValid('attest', [...g, 'attest', 'r', '--key', key]);
    const envelope = await file('att.json', attested.envelope);
    const signers = await file(
      'allowed_signers',
      `ci namespaces="clearance" ${sshEd25519Text(publicKeyOf(key))}\n`,
    );
    await expectValid('attest', [
      ...g,
      'attest',
      '--verify',
      envelope,
      '--allowed-signers',
      signers,
      '--principal',
      'ci',
      'r',
    ]);
    await expectValid('audit', [...g, 'audit', 'HEAD^!', '--repo', repo.dir, '--allowed-signers', signers]);

    // past the cap: may says no (exit 0), a person rules, another extends
    const policy = await file('policy.json', {
      name: 'capped',
      maxRounds: 1,
      severities: { major: { blocks: true } },
      budget: { usd: 1 },
    });
    for (const run of ['p', 'q']) {
      await runInProcess([...g, 'open', run, '--policy-file', policy, '--input-sha', 'A'.padEnd(40, '0')]);
      const rp = await file(`${run}.json`, report(1, 'A', { runId: run, candidates: [major] }));
      await runInProcess([...g, 'record', run, '--report', rp]);
    }
    const refused = await expectValid('may', [...g, 'may', 'p', '--stage', 'planning', '--cost', 'usd=5'], 1);
    expect(refused).toMatchObject({ allowed: false, rejection: { code: expect.any(String) } });
    const ruling = ['--withdrawn', '--why', 'accepted risk', '--by', 'Ada Lovelace'];
    await expectValid('rule', [...g, 'rule', 'p', (recorded.opened as string[])[0] as string, ...ruling]);
    await expectValid('extend', [
      ...g,
      'extend',
      'q',
      '--rounds',
      '1',
      '--why',
      'late fix',
      '--by',
      'Grace Hopper',
    ]);

    // the bar rises: round 2 reviews round 1's input again, as a recorded choice, and a minor is deferred
    const rising = await file('rising.json', {
      name: 'rising',
      maxRounds: 3,
      sameInputRounds: 1,
      severities: { major: { blocks: true }, minor: { blocks: false, untilRound: 1 } },
    });
    const sameSha = 'E'.padEnd(40, '0');
    await runInProcess([...g, 'open', 'c', '--policy-file', rising, '--input-sha', sameSha]);
    await runInProcess([
      ...g,
      'record',
      'c',
      '--report',
      await file('c1.json', report(1, 'E', { runId: 'c', candidates: [major] })),
    ]);
    const again = [
      'capture',
      'c',
      '--input-sha',
      sameSha,
      '--same-input',
      '--reason',
      'the reviewer timed out',
    ];
    expect((await expectValid('capture', [...g, ...again])).capture).toMatchObject({
      sameInput: { reason: 'the reviewer timed out' },
    });
    const late = candidate({ file: 'src/service.js', line: 9, severity: 'minor', summary: 'Name it' });
    const c2 = report(2, 'E', {
      runId: 'c',
      reviewer: 'ada',
      candidates: [late],
    });
    const deferring = await expectValid('record', [
      ...g,
      'record',
      'c',
      '--report',
      await file('c2.json', c2),
    ]);
    expect(deferring.deferred).toMatchObject([
      { id: findingId(late), reason: 'until-round', reviewers: ['ada'] },
    ]);
    const why = await expectValid('explain', [...g, 'explain', 'c']);
    expect(why).toMatchObject({
      deferred: [{ id: findingId(late), citation: 'src/service.js:9', untilRound: 1 }],
      rounds: [{ round: 1 }, { round: 2, tally: { deferred: 1, blockingOpen: 1 } }],
      trend: 'flat',
      sameInput: { rounds: 1, allowed: 1 },
    });
    const where = await expectValid('status', [...g, 'status', 'c']);
    expect(where).toMatchObject({ counts: { deferred: 1 }, sameInput: { rounds: 1, allowed: 1 } });
    await expectValid('replay', [...g, 'replay', 'c']);
    await expectValid('sarif', [...g, 'sarif', 'c']);

    // several reviewers: one contribution by hand, and collect closing a round from a published report
    await runInProcess([...g, 'open', 'm', '--input-sha', 'C'.padEnd(40, '0')]);
    const mine = await file('m1.json', report(1, 'C', { runId: 'm', candidates: [major] }));
    await expectValid('contribute', [...g, 'contribute', 'm', '--reviewer', 'security', '--report', mine]);
    const heard = await expectValid('status', [...g, 'status', 'm']);
    expect(heard.contributions).toMatchObject({
      round: 1,
      reports: [{ reviewer: 'security', candidates: 1 }],
    });
    await runInProcess([...g, 'open', 'n', '--input-sha', 'D'.padEnd(40, '0')]);
    const styled = path.join(dir, 'published', 'style.json');
    await runInProcess([
      'publish',
      styled,
      '--report',
      await file('n1.json', report(1, 'D', { runId: 'n', candidates: [major] })),
    ]);
    await expectValid('collect', [
      ...g,
      'collect',
      'n',
      '--reviewer',
      `style=${styled}`,
      '--timeout-ms',
      '5000',
    ]);
    expect((await expectValid('status', [...g, 'status', 'n'])).panels).toHaveLength(1);
    await expectValid('explain', [...g, 'explain', 'n']);

    // a re-review re-runs the reproductions first: next lists them, reproduce records each outcome
    await runInProcess([...g, 'open', 's', '--input-sha', 'E'.padEnd(40, '0')]);
    const repro = { ...major, reproduction: { command: 'npm test', expected: 'fails' } };
    await runInProcess([
      ...g,
      'record',
      's',
      '--report',
      await file('s1.json', report(1, 'E', { runId: 's', candidates: [repro] })),
    ]);
    await runInProcess([
      ...g,
      'capture',
      's',
      '--input-sha',
      'F'.padEnd(40, '0'),
      '--touched',
      'src/service.js',
    ]);
    expect(await expectValid('next', [...g, 'next', 's'])).toMatchObject({ action: 'rerun-reproductions' });
    const out = await file('repro.txt', 'FAIL src/service.test.js\n');
    await expectValid('reproduce', [
      ...g,
      'reproduce',
      's',
      findingId(repro),
      '--still-fails',
      '--output',
      out,
    ]);

    // the author disputes the finding between rounds: the next round must rule on it
    await expectValid('dispute', [
      ...g,
      'dispute',
      's',
      findingId(repro).slice(0, 12),
      '--reason',
      'the pool closes it',
    ]);

    // CI checks under a policy that requires them: next asks for them, checks records them
    const checked = await file('checked.json', {
      name: 'checked',
      maxRounds: 2,
      severities: { major: { blocks: true } },
      stages: [],
      checks: { required: ['test'], optional: ['docs'], expectedSkips: [] },
    });
    await runInProcess([...g, 'open', 'k', '--policy-file', checked, '--input-sha', 'K'.padEnd(40, '0')]);
    expect(await expectValid('next', [...g, 'next', 'k'])).toMatchObject({
      action: 'record-checks',
      required: ['test'],
    });
    expect(
      await expectValid('checks', [
        ...g,
        'checks',
        'k',
        '--check',
        'test=failed',
        '--url',
        'https://ci.example/runs/1',
        '--check',
        'docs=failed',
      ]),
    ).toMatchObject({ result: 'ci_failed' });

    // moving a run: export it, import it into another store; the directory store needs no init
    const objects = path.join(dir, 'objects');
    const exported = await expectValid('export', [...g, 'export', 'r', '--objects', objects]);
    const moved = await file('r.jsonl', exported.log as string);
    await expectValid('import', [
      '--dir',
      path.join(dir, 'other'),
      'import',
      'r',
      moved,
      '--objects',
      objects,
    ]);
    await expectValid('store', [...g, 'store', 'init']);

    await expectValid('schema', ['schema', 'report']);
    await expectValid('schema', ['schema', 'output', 'may']);
    await expectValid('demo', ['demo']);
    await expectValid('help', ['--help']);
    await expectValid('help', ['record', '--help']);
    await expectValid('version', ['--version']);

    // every schema was exercised by a real output, and every command has one
    expect([...seen].sort()).toEqual([...OUTPUT_NAMES].sort());
  });

  it('refuses an unknown command, naming the choices', async () => {
    const result = await runInProcess(['schema', 'output', 'nope', '--json']);
    expect(result.code).toBe(2);
    expect(result.json).toMatchObject({
      ok: false,
      error: { code: 'usage', details: { choices: OUTPUT_NAMES } },
    });
  });

  it('names every command the CLI has, but mcp, which speaks the protocol instead', async () => {
    const help = await runInProcess(['--help']);
    const commands = [...help.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map((m) => m[1] as string);
    expect(commands.length).toBeGreaterThan(20);
    const expected = commands.filter((c) => c !== 'mcp' && c !== 'help');
    expect(OUTPUT_NAMES.filter((n) => n !== 'help' && n !== 'version').sort()).toEqual(expected.sort());
  });
});
