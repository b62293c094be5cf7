import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import { makeRepo } from '../support/git-repo.js';
import { tempDir } from '../support/tmp.js';

const APP = `${Array.from({ length: 12 }, (_, i) => `line${i + 1}()`).join('\n')}\n`;

/** A repository with app.js, a store, a run opened under issueflow, and a runner. */
const openIssueflowRun = async (runId: string) => {
  const repo = makeRepo();
  repo.write('app.js', APP);
  repo.commitAll('initial');
  const store = await tempDir();
  const run = (args: string[], input?: string) =>
    cli(['--dir', store, ...args], input === undefined ? {} : { input });
  const file = async (name: string, content: string | Buffer) => {
    const at = path.join(store, name);
    await writeFile(at, content);
    return at;
  };
  expect((await run(['open', runId, '--policy', 'issueflow', '--repo', repo.dir])).code).toBe(0);
  const log = path.join(store, 'runs', `${runId}.jsonl`);
  return { run, file, log };
};

const errorOf = (r: { json: Record<string, unknown> }) => r.json.error as { code: string; message: string };

describe('record --findings-md under issueflow: no blocking finding vanishes on the way in', () => {
  it('refuses input that is no review, and misplaced or unknown findings, leaving the log byte-identical', async () => {
    const { run, file, log } = await openIssueflowRun('pr');
    const before = await readFile(log);
    let seed = 11;
    const garbage = Buffer.from(
      Buffer.alloc(4096).map(() => {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        return seed >>> 23;
      }),
    );
    const cases: Array<[string, string[], string | undefined, RegExp]> = [
      ['empty stdin', ['--findings-md', '-'], '', /the review is empty/],
      [
        'a JSON report by mistake',
        ['--findings-md', await file('r.json', '{"runId":"pr","round":1,"candidates":[]}\n')],
        undefined,
        /JSON document.*--report/,
      ],
      [
        '4 KB of binary garbage',
        ['--findings-md', await file('garbage.bin', garbage)],
        undefined,
        /not UTF-8 text: byte 0x[0-9a-f]{2} at offset \d+/,
      ],
      [
        'a finding after the Not examined list',
        [
          '--findings-md',
          await file(
            'late.md',
            '## Not examined\n- the tests\n- [high] app.js:2 :: the handle is never closed\n',
          ),
        ],
        undefined,
        /line 3 is a finding under Not examined/,
      ],
      [
        'a severity of another policy',
        ['--findings-md', await file('major.md', '- [major] app.js:2 :: the handle is never closed\n')],
        undefined,
        /\[major\] is neither a severity of this run's policy \(critical, high, medium, low\)/,
      ],
      [
        'a finding in an HTML comment, which no one sees rendered',
        [
          '--findings-md',
          await file(
            'hidden.md',
            'Looks fine.\n\n<!--\n- [high] app.js:2 :: the handle is never closed\n-->\n',
          ),
        ],
        undefined,
        /line 4 is a finding inside an HTML comment.*"- \[high\] app\.js:2 :: the handle is never closed"/,
      ],
      [
        'a citation past every safe integer',
        ['--findings-md', await file('huge.md', '- [high] app.js:99999999999999999999999 :: x\n')],
        undefined,
        /not a safe integer/,
      ],
    ];
    for (const [what, args, input, message] of cases) {
      const result = await run(['record', 'pr', ...args, '--json'], input);
      expect([what, result.code, errorOf(result).code]).toEqual([what, 1, 'findings-md-invalid']);
      expect(errorOf(result).message).toMatch(message);
      expect(errorOf(result).message).toMatch(/the whole review is refused$/);
      expect(await readFile(log)).toEqual(before);
    }
  });

  it('reads a * bullet finding, the run stays open and the gate refuses', async () => {
    const { run, file } = await openIssueflowRun('star');
    const review = await file('r1.md', '* [high] app.js:2 :: the handle is never closed\n');
    const recorded = await run(['record', 'star', '--findings-md', review, '--json']);
    expect(recorded.json).toMatchObject({ ok: true, round: 1, status: 'open' });
    const gate = await run(['gate', 'star', '--json']);
    expect([gate.code, errorOf(gate).code]).toEqual([1, 'not-converged']);
  });

  it('reads a finding in every marker style, with emphasis, nesting and quotes, as one finding each', async () => {
    const { run, file } = await openIssueflowRun('styles');
    const review = [
      '# Review',
      '',
      '* [high] app.js:1 :: star',
      '',
      '-  [high] app.js:2 :: two spaces',
      '',
      '-\t[high] app.js:3 :: a tab',
      '',
      '+ [high] app.js:4 :: plus',
      '',
      '1. [high] app.js:5 :: ordered',
      '',
      '- **[high]** app.js:6 :: bold',
      '',
      '> - [high] app.js:7 :: quoted',
      '',
      '- context',
      '  - [critical] `app.js:8` :: nested and backticked',
      '',
    ].join('\r\n');
    const recorded = await run(['record', 'styles', '--findings-md', await file('r1.md', review), '--json']);
    expect(recorded.json).toMatchObject({ ok: true, status: 'open' });
    const findings = (await run(['findings', 'styles', '--json'])).json.findings as Array<{ line: number }>;
    expect(findings.map((f) => f.line).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await run(['gate', 'styles', '--json'])).code).toBe(1);
  });

  it('refuses a declared verdict that contradicts the findings as verdict-mismatch, as in JSON', async () => {
    const { run, file, log } = await openIssueflowRun('verdict');
    const before = await readFile(log);
    const review = await file('r1.md', 'Verdict: pass\n\n- [high] app.js:2 :: the handle is never closed\n');
    const result = await run(['record', 'verdict', '--findings-md', review, '--json']);
    expect([result.code, errorOf(result).code]).toEqual([1, 'verdict-mismatch']);
    expect(errorOf(result).message).toMatch(/declares verdict converged, but its findings make it open/);
    expect(await readFile(log)).toEqual(before);
    const agreeing = await file(
      'r1b.md',
      'Verdict: open\n\n- [high] app.js:2 :: the handle is never closed\n',
    );
    expect((await run(['record', 'verdict', '--findings-md', agreeing, '--json'])).json).toMatchObject({
      ok: true,
      status: 'open',
    });
  });
});
