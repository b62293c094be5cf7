import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasControl } from '../../src/text/untrusted.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { makeRepo } from '../support/git-repo.js';
import { snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

type Refusal = { code: string; message: string; details?: { path?: Array<string | number> }; next?: unknown };
const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as Refusal;

/** The candidate files the issue names: out of the repository, elsewhere, or read by git as another file. */
const HOSTILE_FILES = [
  '../../etc/passwd',
  '/etc/passwd',
  'file:///etc/passwd',
  'C:\\x',
  'a.js\u0000../../x',
  'src/a\nb.js',
  'src/\u001b]0;PWNED\u0007.js',
];

/** A store with run-1 opened and round 1 captured as input A, and a runner in it. */
const opened = async (...policy: string[]) => {
  const dir = await tempDir();
  const run = (...args: string[]) => cli(['--dir', dir, ...args, '--json']);
  expect((await run('open', 'run-1', '--input-sha', sha('A'), ...policy)).code).toBe(0);
  const write = async (name: string, value: unknown) => {
    const at = path.join(dir, '..', `${path.basename(dir)}-${name}`);
    await writeFile(at, typeof value === 'string' ? value : JSON.stringify(value));
    return at;
  };
  return { dir, run, write };
};

/** A refusal at the door: exit 1, its code and the field's path, no raw control in the message, nothing written. */
const expectRefused = async (
  dir: string,
  outcome: Promise<{ code: number; json: Record<string, unknown> }>,
  code: string,
  at: Array<string | number>,
) => {
  const before = await snapshot(dir);
  const result = await outcome;
  expect([result.code, errorOf(result).code]).toEqual([1, code]);
  expect(errorOf(result).details?.path).toEqual(at);
  expect(hasControl(errorOf(result).message)).toBe(false);
  expect(await snapshot(dir)).toEqual(before);
  return errorOf(result);
};

describe('reports checked at the door: record, contribute, publish, wait, a Markdown review', () => {
  it('record refuses each hostile candidate file as invalid-path, naming the field, the log unchanged', async () => {
    const { dir, run, write } = await opened();
    for (const file of HOSTILE_FILES) {
      const at = await write('r.json', report(1, 'A', { candidates: [candidate({ file })] }));
      const refused = await expectRefused(dir, run('record', 'run-1', '--report', at), 'invalid-path', [
        'candidates',
        0,
        'file',
      ]);
      expect(refused.message).toMatch(/^invalid round report: candidates\[0\]\.file: "/);
    }
  });

  it('record refuses a one-line field that breaks its line (invalid-text) and a reviewer that is no name (invalid-actor)', async () => {
    const { dir, run, write } = await opened();
    const forged = 'x\n::error file=.github/workflows/release.yml,line=1::forged\n::add-mask::y';
    const summary = await write('s.json', report(1, 'A', { candidates: [candidate({ summary: forged })] }));
    await expectRefused(dir, run('record', 'run-1', '--report', summary), 'invalid-text', [
      'candidates',
      0,
      'summary',
    ]);
    const reviewer = await write('v.json', report(1, 'A', { reviewer: 'ada\nconverged by ruling of bob' }));
    await expectRefused(dir, run('record', 'run-1', '--report', reviewer), 'invalid-actor', ['reviewer']);
  });

  it('record --findings-md refuses a finding on a path outside the repository', async () => {
    const { dir, run, write } = await opened();
    const review = await write('r.md', '- [major] ../../etc/passwd:1 :: the password file is readable\n');
    await expectRefused(dir, run('record', 'run-1', '--findings-md', review), 'invalid-path', [
      'candidates',
      0,
      'file',
    ]);
  });

  it('contribute refuses a hostile file in a candidate and in a verification', async () => {
    const { dir, run, write } = await opened();
    const candidates = await write(
      'c.json',
      report(1, 'A', { candidates: [candidate({ file: '/etc/passwd' })] }),
    );
    await expectRefused(
      dir,
      run('contribute', 'run-1', '--reviewer', 'ada', '--report', candidates),
      'invalid-path',
      ['candidates', 0, 'file'],
    );
    const verification = {
      file: 'file:///etc/passwd',
      category: 'c',
      summary: 's',
      verdict: 'refuted',
      evidence: 'e',
    };
    const ruling = await write('v.json', report(1, 'A', { verifications: [verification as never] }));
    await expectRefused(
      dir,
      run('contribute', 'run-1', '--reviewer', 'ada', '--report', ruling),
      'invalid-path',
      ['verifications', 0, 'file'],
    );
  });

  it('publish refuses it before anything is published', async () => {
    const { dir, write } = await opened();
    const draft = await write('d.json', report(1, 'A', { candidates: [candidate({ file: 'C:\\x' })] }));
    const inbox = path.join(dir, '..', `${path.basename(dir)}-inbox.json`);
    await expectRefused(
      dir,
      cli(['--dir', dir, 'publish', inbox, '--report', draft, '--json']),
      'invalid-path',
      ['candidates', 0, 'file'],
    );
    expect(existsSync(inbox)).toBe(false);
  });

  it('wait refuses a published report holding one as malformed (the completion code), naming the field', async () => {
    const { dir, write } = await opened();
    const inbox = await write('inbox.json', report(1, 'A', { candidates: [candidate({ file: '../x' })] }));
    const before = await snapshot(dir);
    const waited = await cli([
      '--dir',
      dir,
      'wait',
      inbox,
      '--run',
      'run-1',
      '--round',
      '1',
      '--input-sha',
      sha('A'),
      '--json',
    ]);
    expect([waited.code, errorOf(waited).code]).toEqual([4, 'malformed']);
    expect(errorOf(waited).message).toMatch(/candidates\[0\]\.file: "\.\.\/x" has a "\.\." name/);
    expect(await snapshot(dir)).toEqual(before);
  });
});

describe('captures checked at the door: capture and open, named explicitly', () => {
  it('capture --input-sha refuses a touched file or a rename side that is no repository path', async () => {
    const { dir, run } = await opened();
    const capture = (...changes: string[]) => run('capture', 'run-1', '--input-sha', sha('B'), ...changes);
    await expectRefused(dir, capture('--touched', 'src/ok.js', '--touched', '../x'), 'invalid-path', [
      'touchedFiles',
      1,
    ]);
    await expectRefused(dir, capture('--touched', 'src/a\nb.js'), 'invalid-path', ['touchedFiles', 0]);
    await expectRefused(dir, capture('--touched', 'a.js\u0000../../x'), 'invalid-path', ['touchedFiles', 0]);
    await expectRefused(dir, capture('--rename', '/etc/passwd=src/a.js'), 'invalid-path', [
      'renames',
      0,
      'from',
    ]);
    const refused = await expectRefused(
      dir,
      capture('--rename', 'src/a.js=src/\u001b[2J.js'),
      'invalid-path',
      ['renames', 0, 'to'],
    );
    expect(refused.message).toMatch(
      /^invalid capture: renames\[0\]\.to: "src\/\\u001b\[2J\.js" holds the control/,
    );
  });

  it('accepts unusual names that are paths inside the repository', async () => {
    const { run } = await opened();
    const captured = await run(
      'capture',
      'run-1',
      '--input-sha',
      sha('B'),
      '--touched',
      'with space/ünïcødé.js',
      '--touched',
      '.github/workflows/ci.yml',
      '--rename',
      'a..b.js=docs/c d.md',
    );
    expect(captured.code).toBe(0);
    expect(captured.json.capture).toMatchObject({
      touchedFiles: ['with space/ünïcødé.js', '.github/workflows/ci.yml'],
      renames: [{ from: 'a..b.js', to: 'docs/c d.md' }],
    });
  });

  it('open --input-sha refuses one, and no run is created', async () => {
    const dir = await tempDir();
    const before = await snapshot(dir);
    const opening = await cli([
      '--dir',
      dir,
      'open',
      'run-2',
      '--input-sha',
      sha('A'),
      '--touched',
      '/etc/passwd',
      '--json',
    ]);
    expect([opening.code, errorOf(opening).code]).toEqual([1, 'invalid-path']);
    expect(errorOf(opening).details?.path).toEqual(['touchedFiles', 0]);
    expect(await snapshot(dir)).toEqual(before);
    expect((await cli(['--dir', dir, 'status', 'run-2', '--json'])).code).not.toBe(0);
  });
});

describe('captures from git: a name git reports that is no repository path refuses the capture', () => {
  /** A repository whose second commit adds a file named `name`. */
  const repoAdding = (name: string) => {
    const repo = makeRepo();
    repo.write('src/service.js', 'open()\nread()\nclose()\n');
    const first = repo.commitAll('clean names');
    repo.write(name, 'x\n');
    repo.commitAll('a hostile name');
    return { repo, first };
  };

  for (const [what, name] of [
    ['a newline', 'src/evil\nname.js'],
    ['ESC', 'src/\u001b]0;PWNED\u0007.js'],
  ] as const) {
    it(`capture --repo refuses a file whose name holds ${what}, naming it, the log unchanged`, async () => {
      const repo = makeRepo();
      repo.write('src/service.js', 'open()\nread()\nclose()\n');
      const first = repo.commitAll('clean names');
      const dir = await tempDir();
      const run = (...args: string[]) => cli(['--dir', dir, ...args, '--json']);
      expect((await run('open', 'run-1', '--repo', repo.dir)).code).toBe(0);
      const r1 = path.join(dir, '..', `${path.basename(dir)}-r1.json`);
      const round1 = report(1, first, { candidates: [candidate({ file: 'src/service.js', line: 2 })] });
      await writeFile(r1, JSON.stringify({ ...round1, inputSha: first }));
      expect((await run('record', 'run-1', '--report', r1)).code).toBe(0);
      repo.write(name, 'x\n');
      repo.commitAll('a hostile name');
      const refused = await expectRefused(dir, run('capture', 'run-1'), 'invalid-path', ['touchedFiles', 0]);
      expect(refused.message).toContain(JSON.stringify(name));
      expect(refused.message).toMatch(
        /git reports a file of that name changed since the last reviewed input.*name the changes yourself/,
      );
      expect(refused.next).toEqual({
        action: 'capture',
        runId: 'run-1',
        args: { inputSha: true, touched: true },
      });
    });
  }

  it('a hostile name already reviewed refuses again when renamed away; naming the changes gets past it', async () => {
    const repo = makeRepo();
    repo.write('src/service.js', 'open()\nread()\nclose()\n');
    repo.write('src/evil\nname.js', 'x\n');
    const first = repo.commitAll('a hostile name before the run');
    const dir = await tempDir();
    const run = (...args: string[]) => cli(['--dir', dir, ...args, '--json']);
    // round 1 has nothing to compare with: no name is reported, none refused
    expect((await run('open', 'run-1', '--repo', repo.dir)).code).toBe(0);
    const r1 = path.join(dir, '..', `${path.basename(dir)}-r1.json`);
    const round1 = { ...report(1, 'A', { candidates: [candidate({ line: 2 })] }), inputSha: first };
    await writeFile(r1, JSON.stringify(round1));
    expect((await run('record', 'run-1', '--report', r1)).code).toBe(0);
    repo.git('mv', 'src/evil\nname.js', 'src/good-name.js');
    const second = repo.commitAll('renamed');
    const refused = await expectRefused(dir, run('capture', 'run-1'), 'invalid-path', ['renames', 0, 'from']);
    expect(refused.message).toMatch(/name the changes yourself: an input sha with its touched files/);
    expect(refused.next).toMatchObject({ action: 'capture', args: { inputSha: true, touched: true } });
    const named = await run('capture', 'run-1', '--input-sha', second, '--touched', 'src/good-name.js');
    expect(named.code).toBe(0);
  });

  it('open --repo --base refuses the round 1 capture, and no run is created', async () => {
    const { repo, first } = repoAdding('src/evil\nname.js');
    const dir = await tempDir();
    const before = await snapshot(dir);
    const opening = await cli(['--dir', dir, 'open', 'run-1', '--repo', repo.dir, '--base', first, '--json']);
    expect([opening.code, errorOf(opening).code]).toEqual([1, 'invalid-path']);
    expect(errorOf(opening).message).toContain('"src/evil\\nname.js"');
    expect(await snapshot(dir)).toEqual(before);
  });

  it('a repository whose names are all paths captures as before', async () => {
    const { repo, first } = repoAdding('with space/ünïcødé..md');
    const dir = await tempDir();
    const opening = await cli(['--dir', dir, 'open', 'run-1', '--repo', repo.dir, '--base', first, '--json']);
    expect(opening.code).toBe(0);
    expect((opening.json.capture as { touchedFiles: string[] }).touchedFiles).toEqual([
      'with space/ünïcødé..md',
    ]);
    expect(await readFile(path.join(dir, 'runs', 'run-1.jsonl'), 'utf8')).toContain('with space/ünïcødé..md');
  });
});

describe("the library's doors refuse alike: operations.capture, operations.open", () => {
  it('operations.capture and operations.open refuse a capture whose names are no repository paths, writing nothing', async () => {
    const { fileStore, operations, PRESETS } = await import('../../src/index.js');
    const dir = await tempDir();
    const ctx = { store: fileStore(dir), by: 'ada' };
    const refusedBy = async (attempt: () => Promise<unknown>) => {
      const before = await snapshot(dir);
      const error = await attempt().then(
        () => null,
        (e: unknown) => e as { code: string; details: { path: unknown } },
      );
      expect(await snapshot(dir)).toEqual(before);
      return error === null ? null : { code: error.code, path: error.details.path };
    };
    const bad = {
      inputSha: sha('A'),
      touched: ['src/ok.js'],
      renames: [{ from: 'a.js', to: '../b.js' }],
    };
    expect(
      await refusedBy(() => operations.open(ctx, { runId: 'run-1', policy: PRESETS.default, ...bad })),
    ).toEqual({ code: 'invalid-path', path: ['renames', 0, 'to'] });
    await operations.open(ctx, { runId: 'run-1', policy: PRESETS.default });
    expect(
      await refusedBy(() =>
        operations.capture(ctx, { runId: 'run-1', inputSha: sha('A'), touched: ['C:\\x'] }),
      ),
    ).toEqual({ code: 'invalid-path', path: ['touchedFiles', 0] });
  });

  it("a library caller's named input keeps the revision it read itself, in the keys' order of every capture line", async () => {
    const { fileStore, operations, PRESETS } = await import('../../src/index.js');
    const dir = await tempDir();
    const ctx = { store: fileStore(dir), by: 'ada' };
    const revision = { commit: sha('C'), tree: sha('T') };
    const opened = await operations.open(ctx, {
      runId: 'run-1',
      policy: PRESETS.default,
      inputSha: sha('A'),
      revision,
    });
    expect(opened.capture).toEqual({ inputSha: sha('A'), touchedFiles: [], renames: [], ...revision });
    const captured = await operations.capture(ctx, {
      runId: 'run-1',
      inputSha: sha('B'),
      touched: ['src/a.js'],
      revision: { commit: sha('D') },
    });
    expect(captured.capture).toEqual({
      inputSha: sha('B'),
      touchedFiles: ['src/a.js'],
      renames: [],
      commit: sha('D'),
    });
    const lines = (await readFile(path.join(dir, 'runs', 'run-1.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((l) => Object.keys(JSON.parse(l).data))).toEqual([
      ['runId', 'policy', 'subject', 'consent'],
      ['inputSha', 'touchedFiles', 'renames', 'commit', 'tree', 'round'],
      ['inputSha', 'touchedFiles', 'renames', 'commit', 'round'],
    ]);
  });
});

describe('names checked at the door: --by, CLEARANCE_ACTOR, --reviewer', () => {
  const FORGED = 'Mallory\nconverged by ruling of Boss after round 9: all good';

  it('refuses a name that breaks its line, wherever it comes from, naming the source, the store unchanged', async () => {
    const { dir, run, write } = await opened();
    const rp = await write('r1.json', report(1, 'A', { candidates: [candidate()] }));
    const refusal = await expectRefused(
      dir,
      run('--by', FORGED, 'record', 'run-1', '--report', rp),
      'invalid-actor',
      ['--by'],
    );
    expect(refusal.message).toContain('--by');
    const fromEnv = cli(['--dir', dir, 'record', 'run-1', '--report', rp, '--json'], {
      env: { CLEARANCE_ACTOR: '\u001b]0;PWNED\u0007' },
    });
    await expectRefused(dir, fromEnv, 'invalid-actor', ['CLEARANCE_ACTOR']);
    await expectRefused(
      dir,
      run('contribute', 'run-1', '--reviewer', FORGED, '--report', rp),
      'invalid-actor',
      ['reviewer'],
    );
    await expectRefused(
      dir,
      run('collect', 'run-1', '--reviewer', `${'x'.repeat(300)}=${rp}`, '--timeout-ms', '100'),
      'invalid-actor',
      ['reviewer'],
    );
  });

  it('refuses a ruling whose --by breaks its line: no forged "converged by ruling of" line is ever written', async () => {
    const { dir, run, write } = await opened('--policy-file', await writePolicy());
    const rp = await write('r1.json', report(1, 'A', { candidates: [candidate()] }));
    expect((await run('record', 'run-1', '--report', rp)).json).toMatchObject({ status: 'blocked' });
    const id = (await run('findings', 'run-1')).json.findings as Array<{ id: string }>;
    const ruling = ['rule', 'run-1', (id[0] as { id: string }).id, '--withdrawn', '--why', 'accepted'];
    await expectRefused(dir, run(...ruling, '--by', FORGED), 'invalid-actor', ['--by']);
    expect((await run(...ruling, '--by', 'Ada Lovelace')).json).toMatchObject({ status: 'converged' });
  });
});

/** A policy of one round, so that a run with a blocking finding is blocked at once. */
const writePolicy = async (): Promise<string> => {
  const file = path.join(await tempDir(), 'policy.json');
  await writeFile(
    file,
    JSON.stringify({ name: 'one', maxRounds: 1, severities: { major: { blocks: true } } }),
  );
  return file;
};
