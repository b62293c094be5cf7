import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findingId } from '../../src/index.js';
import { cli } from '../support/cli.js';
import { makeRepo } from '../support/git-repo.js';
import { tempDir } from '../support/tmp.js';

const SPEC = '# Spec\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall it.\n';

/** A repository with code and a spec document, a store, and a `clearance --dir store` runner. */
const setup = async () => {
  const repo = makeRepo();
  repo.write('src/service.js', 'open()\nread()\nclose()\n');
  repo.write('docs/spec.md', SPEC);
  repo.commitAll('initial');
  const store = await tempDir();
  const run = (...args: string[]) => cli(['--dir', store, ...args]);
  const md = async (name: string, text: string) => {
    const file = path.join(store, name);
    await writeFile(file, text);
    return file;
  };
  return { repo, store, run, md, spec: path.join(repo.dir, 'docs/spec.md') };
};

const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as { code: string; message: string };

describe('revision binding and the approval gate', () => {
  it('refuse a citation that resolves nothing → register a pass → approve → edit → refused → commit and restore → refused', async () => {
    const { repo, run, md, spec } = await setup();
    expect(
      (await run('open', 'doc', '--policy', 'issueflow', '--repo', repo.dir, '--artifact', spec)).code,
    ).toBe(0);

    const nowhere = await run(
      'record',
      'doc',
      '--findings-md',
      await md('r1.md', '- [high] src/service.js:40 :: the handle is never closed\n'),
      '--json',
    );
    expect(nowhere.code).toBe(1);
    expect(errorOf(nowhere)).toMatchObject({
      code: 'citation-unresolved',
      message: expect.stringMatching(/src\/service\.js has 3 lines; line 40 is past its end/),
    });
    const missingHeading = await run(
      'record',
      'doc',
      '--findings-md',
      await md('r1b.md', '- [high] docs/spec.md § Uninstall :: says nothing about removal\n'),
      '--json',
    );
    expect(errorOf(missingHeading).message).toMatch(/docs\/spec\.md has no heading "Uninstall".*"Install"/);

    const pass = await run(
      'record',
      'doc',
      '--findings-md',
      await md(
        'pass.md',
        '# Review\n\nNothing to report.\n\n## Not examined\n- the installer script itself\n',
      ),
      '--json',
    );
    expect(pass.json).toMatchObject({ ok: true, round: 1, status: 'converged' });
    const approved = await run('gate', 'doc', '--json');
    expect(approved.json).toMatchObject({ ok: true, approved: true, boundBy: 'commit' });

    await writeFile(spec, `${SPEC}\n## Uninstall\n\nDelete it.\n`);
    const edited = await run('gate', 'doc', '--json');
    expect([edited.code, errorOf(edited).code]).toEqual([1, 'artifact-changed']);

    repo.commitAll('document uninstall');
    await writeFile(spec, SPEC);
    const restored = await run('gate', 'doc', '--json');
    expect([restored.code, errorOf(restored).code]).toEqual([1, 'head-moved']);
    expect(errorOf(restored).message).toMatch(/HEAD is [0-9a-f]{12}, but round 1 reviewed [0-9a-f]{12}/);
  });

  it('a heading citation resolves, and the resolved finding opens', async () => {
    const { repo, run, md } = await setup();
    await run('open', 'doc', '--policy', 'issueflow', '--repo', repo.dir);
    const r1 = await run(
      'record',
      'doc',
      '--findings-md',
      await md('r1.md', '- [high] `docs/spec.md § Install` :: the installer needs root, say so\n'),
      '--json',
    );
    expect(r1.json).toMatchObject({ ok: true, status: 'open' });
    const findings = await run('findings', 'doc', '--json');
    expect((findings.json.findings as Array<Record<string, unknown>>)[0]).toMatchObject({
      file: 'docs/spec.md',
      section: 'Install',
      citation: 'docs/spec.md § Install',
      line: null,
    });
  });

  it('findings in prose with one malformed line are refused whole, quoting the line; nothing is written', async () => {
    const { repo, run, md, store } = await setup();
    await run('open', 'r', '--repo', repo.dir);
    const log = path.join(store, 'runs', 'r.jsonl');
    const before = await readFile(log);
    const result = await run(
      'record',
      'r',
      '--findings-md',
      await md('bad.md', '- [major] src/service.js:1 :: fine\n- [major] src/service.js :: no line\n'),
      '--json',
    );
    expect(result.code).toBe(1);
    expect(errorOf(result)).toMatchObject({
      code: 'findings-md-invalid',
      message: expect.stringMatching(/line 2.*- \[major\] src\/service\.js :: no line/),
    });
    expect(await readFile(log)).toEqual(before);
  });

  it('the gate refuses what was not reviewed: no round, not converged, an explicit input it cannot check', async () => {
    const { repo, run, md } = await setup();
    await run('open', 'r', '--repo', repo.dir);
    expect(errorOf(await run('gate', 'r', '--json')).code).toBe('no-review');
    await run(
      'record',
      'r',
      '--findings-md',
      await md('r1.md', '- [major] src/service.js:2 :: read() is unchecked\n'),
    );
    const open = await run('gate', 'r', '--json');
    expect(errorOf(open)).toMatchObject({
      code: 'not-converged',
      message: expect.stringMatching(/is open after round 1/),
    });
    await run('open', 'named', '--input-sha', 'abc123');
    await run('record', 'named', '--findings-md', await md('n.md', 'nothing\n'));
    expect(errorOf(await run('gate', 'named', '--json')).code).toBe('unverifiable');
  });

  it('a dirty tree is refused, accepted with --allow-dirty, bound to the working tree, and gated on it', async () => {
    const { repo, run, md } = await setup();
    repo.write('src/service.js', 'open()\nread()\nclose()\nflush()\n');
    const refused = await run('open', 'wip', '--repo', repo.dir, '--json');
    expect([refused.code, errorOf(refused).code]).toEqual([1, 'dirty-tree']);
    const opened = await run('open', 'wip', '--repo', repo.dir, '--allow-dirty', '--json');
    expect(opened.json).toMatchObject({ ok: true, capture: { dirty: true } });
    const capture = opened.json.capture as { tree: string; commit: string; inputSha: string };
    expect(capture.inputSha).toBe(capture.tree);
    expect(capture.tree).not.toBe(repo.git('rev-parse', 'HEAD^{tree}').trim());
    await run('record', 'wip', '--findings-md', await md('r1.md', 'nothing found\n'));
    expect((await run('gate', 'wip', '--json')).json).toMatchObject({ ok: true, boundBy: 'working-tree' });
    repo.write('src/service.js', 'open()\n');
    expect(errorOf(await run('gate', 'wip', '--json')).code).toBe('head-moved');
  });

  it('a rename between rounds moves the finding and demands its decision under the new path', async () => {
    const { repo, run, md, store } = await setup();
    await run('open', 'r', '--repo', repo.dir);
    await run(
      'record',
      'r',
      '--findings-md',
      await md('r1.md', '- [major] src/service.js:2 :: read() is unchecked\n'),
    );
    repo.remove('src/service.js');
    repo.write('src/io/service.js', 'open()\nread()\nclose()\n');
    repo.commitAll('move');
    const captured = await run('capture', 'r', '--json');
    expect(captured.json).toMatchObject({
      ok: true,
      round: 2,
      capture: {
        renames: [{ from: 'src/service.js', to: 'src/io/service.js' }],
        touchedFiles: ['src/io/service.js'],
      },
    });
    const id = findingId({ file: 'src/service.js', category: 'prose', summary: 'read() is unchecked' });
    const report = (decisions: unknown[]) => ({
      runId: 'r',
      round: 2,
      inputSha: repo.git('rev-parse', 'HEAD').trim(),
      completed: true,
      candidates: [],
      decisions,
    });
    const noDecision = path.join(store, 'r2a.json');
    await writeFile(noDecision, JSON.stringify(report([])));
    expect(errorOf(await run('record', 'r', '--report', noDecision, '--json'))).toMatchObject({
      code: 'missing-decision',
      message: expect.stringMatching(/src\/io\/service\.js/),
    });
    const decided = path.join(store, 'r2b.json');
    await writeFile(
      decided,
      JSON.stringify(report([{ id, status: 'fixed', evidence: 'checked after the move' }])),
    );
    expect((await run('record', 'r', '--report', decided, '--json')).json).toMatchObject({
      ok: true,
      status: 'converged',
    });
    const findings = await run('findings', 'r', '--json');
    expect((findings.json.findings as Array<Record<string, unknown>>)[0]).toMatchObject({
      id,
      file: 'src/io/service.js',
      status: 'fixed',
    });
  });

  it('bind: "tree" lets an approval survive a message-only amend, and not a content change', async () => {
    const { repo, run, md, store } = await setup();
    const policy = path.join(store, 'tree-policy.json');
    await writeFile(
      policy,
      JSON.stringify({
        name: 'by-tree',
        maxRounds: 2,
        severities: { major: { blocks: true } },
        bind: 'tree',
      }),
    );
    await run('open', 'r', '--policy-file', policy, '--repo', repo.dir);
    await run('record', 'r', '--findings-md', await md('r1.md', 'clean\n'));
    repo.git('commit', '-q', '--amend', '-m', 'a better message');
    const amended = await run('gate', 'r', '--json');
    expect(amended.json).toMatchObject({
      ok: true,
      boundBy: 'tree',
      message: expect.stringMatching(/its tree [0-9a-f]{12} is identical \(policy bind: tree\)/),
    });
    repo.write('src/service.js', 'changed()\n');
    repo.commitAll('change');
    const changed = await run('gate', 'r', '--json');
    expect(errorOf(changed)).toMatchObject({
      code: 'head-moved',
      message: expect.stringMatching(/bind: tree does not apply, the trees differ/),
    });
    // without bind: tree, the same amend is refused
    await run('open', 'strict', '--repo', repo.dir);
    await run('record', 'strict', '--findings-md', await md('s.md', 'clean\n'));
    repo.git('commit', '-q', '--amend', '-m', 'again');
    expect(errorOf(await run('gate', 'strict', '--json')).code).toBe('head-moved');
  });

  it('feedback re-briefs the producer with what still blocks', async () => {
    const { repo, run, md } = await setup();
    await run('open', 'r', '--repo', repo.dir);
    await run(
      'record',
      'r',
      '--findings-md',
      await md(
        'r1.md',
        '- [major] src/service.js:2 :: read() is unchecked\n- [nit] src/service.js:1 :: name it openService\n',
      ),
    );
    const feedback = await run('feedback', 'r');
    expect(feedback.code).toBe(0);
    expect(feedback.stdout).toMatch(/^## Review feedback, round 1\n/);
    expect(feedback.stdout).toMatch(
      /- `[0-9a-f]{12}` \*\*src\/service\.js:2\*\* \(major, open 1 round\): read\(\) is unchecked/,
    );
    expect(feedback.stdout).toMatch(/Advisory findings open: 1/);
    expect(feedback.stdout).toMatch(/Full record: .*runs\/r\.jsonl/);
  });
});
