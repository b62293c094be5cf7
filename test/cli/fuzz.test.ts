import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { numRuns, scaled } from '../../property-tests/runs.js';
import { candidate, report, sha } from '../support/builders.js';
import { cli } from '../support/cli.js';
import { runInProcess, snapshot } from '../support/in-process.js';
import { tempDir } from '../support/tmp.js';

/**
 * Hostile input through the real command line: mutated reports, hostile Markdown, hostile paths and
 * run ids. Whatever comes in, the CLI never ends as an internal error (70), prints exactly one JSON
 * object under --json, and leaves the run's files byte-identical when it refuses.
 */

const RUN = 'run-1';
const valid = () => report(1, 'A', { runId: RUN, candidates: [candidate()] });

const HOSTILE_VALUES: ReadonlyArray<unknown> = [
  null,
  true,
  0,
  -1,
  1.5,
  Number.MAX_SAFE_INTEGER,
  '',
  'x'.repeat(200_000),
  '\u202e\u0000\u001b[2J',
  [],
  {},
  [[[[[[[[[[[]]]]]]]]]]],
  { nested: { deeper: { still: [1, 2, 3] } } },
];

// Text the JSON serialiser cannot produce: raw tokens spliced into the report's text.
const HOSTILE_TOKENS = [
  '9007199254740993',
  '-9007199254740993',
  '1e400',
  '99999999999999999999999',
  '"\\ud800"',
  '"\\udfff tail"',
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '"\\u0000"',
  'NaN',
  'undefined',
];

const KEYS = ['runId', 'round', 'inputSha', 'completed', 'candidates', 'decisions', 'notExamined', 'verdict'];
const CANDIDATE_KEYS = ['file', 'line', 'category', 'summary', 'severity', 'confirmed', 'evidence'];

type Case = Readonly<{
  label: string;
  argv: (dir: string, out: string) => string[];
  stdin?: Uint8Array | string;
  /** a Markdown review holding a finding no one sees rendered: it must be refused, never recorded */
  hidesFinding?: true;
}>;

const bytesOf = (text: string): Buffer => Buffer.from(text, 'utf8');

const mutatedReport: fc.Arbitrary<Case> = fc
  .oneof(
    // a field of the report, or of its candidate, set to a value of the wrong type or size
    fc.record({
      kind: fc.constant('value' as const),
      key: fc.constantFrom(...KEYS, ...CANDIDATE_KEYS.map((k) => `candidates.0.${k}`)),
      value: fc.constantFrom(...HOSTILE_VALUES),
    }),
    // a raw token JSON.stringify would never write, in place of a field
    fc.record({
      kind: fc.constant('token' as const),
      key: fc.constantFrom('round', 'candidates.0.line', 'candidates.0.summary', 'notExamined'),
      token: fc.constantFrom(...HOSTILE_TOKENS),
    }),
    // a key said twice
    fc.record({ kind: fc.constant('duplicate' as const), key: fc.constantFrom(...KEYS, 'line', 'severity') }),
    // bytes that are not UTF-8, at any offset
    fc.record({
      kind: fc.constant('bytes' as const),
      at: fc.nat(),
      bytes: fc.constantFrom([0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x82], [0x80], [0xfe, 0xff]),
    }),
    // cut anywhere
    fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
    // arbitrary JSON, and arbitrary text
    fc.record({ kind: fc.constant('json' as const), value: fc.jsonValue({ maxDepth: 4 }) }),
    fc.record({ kind: fc.constant('text' as const), text: fc.string({ unit: 'binary', maxLength: 200 }) }),
  )
  .map((m): Case => {
    let text: string;
    let raw: Buffer | undefined;
    switch (m.kind) {
      case 'value': {
        const r = JSON.parse(JSON.stringify(valid())) as Record<string, unknown>;
        const parts = m.key.split('.');
        let at: Record<string, unknown> = r;
        for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
        at[parts[parts.length - 1] as string] = m.value;
        text = JSON.stringify(r);
        break;
      }
      case 'token': {
        const r = JSON.parse(JSON.stringify(valid())) as Record<string, unknown>;
        const parts = m.key.split('.');
        let at: Record<string, unknown> = r;
        for (const p of parts.slice(0, -1)) at = at[p] as Record<string, unknown>;
        at[parts[parts.length - 1] as string] = '@@TOKEN@@';
        text = JSON.stringify(r).replace('"@@TOKEN@@"', m.token);
        break;
      }
      case 'duplicate': {
        const base = JSON.stringify(valid());
        text =
          m.key === 'line' || m.key === 'severity'
            ? base.replace(`"${m.key}":`, `"${m.key}":${m.key === 'line' ? '11' : '"nit"'},"${m.key}":`)
            : base.replace(
                '{',
                `{"${m.key}":${JSON.stringify((valid() as Record<string, unknown>)[m.key] ?? null)},`,
              );
        break;
      }
      case 'bytes': {
        const base = bytesOf(JSON.stringify(valid()));
        const at = m.at % (base.length + 1);
        raw = Buffer.concat([base.subarray(0, at), Buffer.from(m.bytes), base.subarray(at)]);
        text = '';
        break;
      }
      case 'truncate': {
        const base = JSON.stringify(valid());
        text = base.slice(0, m.at % base.length);
        break;
      }
      case 'json':
        text = JSON.stringify(m.value) ?? 'null';
        break;
      case 'text':
        text = m.text;
        break;
    }
    return {
      label: `report: ${m.kind}`,
      argv: () => ['record', RUN, '--report', '-', '--json'],
      stdin: raw ?? text,
    };
  });

const hostileMarkdown: fc.Arbitrary<Case> = fc
  .oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constantFrom(
      '',
      '\uFEFF',
      '{"runId":"run-1"}',
      '- [major] src/service.js:99999999999999999999999 :: huge line\n\n## Not examined\n- nothing',
      '* [high] app.js:2 :: a star bullet\n',
      '> - [major] a.js:1 :: quoted\n',
      `${'> '.repeat(2000)}- [major] a.js:1 :: deep quote`,
      `${'  '.repeat(3000)}- [major] a.js:1 :: deep indent`,
      '- [major] \ud800.js:1 :: lone surrogate in a path',
      `- [major] a.js:1 :: ${'x'.repeat(300_000)}`,
      '## Findings\n- the root cause seems shaky to me\n',
      '<!-- ## Hidden -->\n- [major] doc.md § Hidden :: cite\n',
    ),
    fc
      .array(
        fc.constantFrom(
          '- ',
          '* ',
          '+ ',
          '1. ',
          '> ',
          '[major] ',
          '[fixed] ',
          ':: ',
          'a.js:',
          '10',
          '\n',
          '## Not examined\n',
          '`',
          '**',
          '\r\n',
          '\t',
          '§ ',
          '<!-- ',
          ' -->',
          '<details>\n',
        ),
        { maxLength: 40 },
      )
      .map((parts) => parts.join('')),
  )
  .map((text) => ({
    label: 'markdown',
    argv: () => ['record', RUN, '--findings-md', '-', '--json'],
    stdin: text,
  }));

/** Finding- and decision-shaped lines, and the HTML that hides each from a rendered review. */
const HIDDEN_LINES = [
  '- [major] src/a.js:0 :: line zero',
  '[major] src/service.js:3 :: the handle leaks',
  '- [fixed] 827f9ded38b8 :: closed in a finally block',
  '* **[nit]** `doc.md § Intro` :: a typo',
  '1. [withdrawn] 827f9ded :: not real',
  '- [severity] path:line :: text',
];
const HIDING_PLACES: ReadonlyArray<(line: string) => string> = [
  (line) => `<!-- ${line} -->`,
  (line) => `<!--\n${line}\n-->`,
  (line) => `  <!--\n  ${line}\n  -->`,
  (line) => `Looks fine <!-- ${line} --> to me.`,
  (line) => `- fine <!-- ${line} -->`,
  (line) => `## Notes <!-- ${line} -->`,
  (line) => `> <!-- ${line} -->`,
  (line) => `| a | b |\n| - | - |\n| x <!-- ${line} --> | y |`,
  (line) => `<div><!-- ${line} --></div>`,
  (line) => `<details>\n<summary>More</summary>\n<!--\n${line}\n-->\n</details>`,
];

const hiddenFinding: fc.Arbitrary<Case> = fc
  .record({
    line: fc.constantFrom(...HIDDEN_LINES),
    place: fc.nat(HIDING_PLACES.length - 1),
    eol: fc.constantFrom('\n', '\r\n'),
    before: fc.constantFrom('', 'Verdict: open', '## Findings', 'Looks fine.', '## Not examined\n\nNothing.'),
    after: fc.constantFrom('', '## Not examined\n\nThe generated client.'),
  })
  .map(({ line, place, eol, before, after }) => ({
    label: `markdown hiding ${JSON.stringify(line)} in place ${place}`,
    argv: () => ['record', RUN, '--findings-md', '-', '--json'],
    stdin: [before, (HIDING_PLACES[place] as (l: string) => string)(line), after]
      .filter((part) => part !== '')
      .join('\n\n')
      .replaceAll('\n', eol),
    hidesFinding: true,
  }));

const HOSTILE_IDS = [
  '',
  '.',
  '..',
  '../escape',
  'a/b',
  'a\\b',
  '-rf',
  '--json',
  'x'.repeat(5000),
  '\u202eevil',
  'run-1\n',
  ' run-1',
  'CON',
  'run-1.jsonl',
  '%2e%2e',
];

const hostileIds: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(...HOSTILE_IDS),
    fc.constantFrom('status', 'findings', 'feedback', 'replay', 'verify', 'next'),
  )
  .map(([id, command]) => ({
    label: `${command} ${JSON.stringify(id)}`,
    argv: () => [command, id, '--json'],
  }));

const hostilePaths: fc.Arbitrary<Case> = fc
  .tuple(
    fc.constantFrom(
      '',
      '/',
      '/dev/null',
      '/dev/zero',
      '/proc/self/mem',
      'x'.repeat(5000),
      'missing/deeper/file.json',
      '.',
      '/etc/shadow-nope',
    ),
    fc.constantFrom('report', 'findings-md', 'policy-file', 'output', 'publish'),
  )
  .map(([p, flag]) => ({
    label: `--${flag} ${JSON.stringify(p.slice(0, 40))}`,
    argv: (_dir: string, out: string) =>
      flag === 'report'
        ? ['record', RUN, '--report', p, '--max-bytes', '1000', '--json']
        : flag === 'findings-md'
          ? ['record', RUN, '--findings-md', p, '--max-bytes', '1000', '--json']
          : flag === 'policy-file'
            ? ['open', 'run-2', '--policy-file', p, '--max-bytes', '1000', '--json']
            : flag === 'output'
              ? ['stage', RUN, 'planning', '--finish', '--output', p, '--max-bytes', '1000', '--json']
              : ['publish', path.join(out, 'round.json'), '--report', p, '--max-bytes', '1000', '--json'],
  }));

const hostileOthers: fc.Arbitrary<Case> = fc.oneof(
  // policies: mutated like reports, read from stdin
  fc
    .oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null'),
      fc.constantFrom(
        '{"name":"p","maxRounds":9007199254740993,"severities":{"major":{"blocks":true}}}',
        '{"name":"p","name":"q","maxRounds":2,"severities":{"major":{"blocks":true}}}',
        '{"name":"p","maxRounds":1e400,"severities":{}}',
        `{"name":"${'p'.repeat(100_000)}","maxRounds":2,"severities":{"major":{"blocks":true}}}`,
      ),
    )
    .map((text) => ({
      label: 'policy',
      argv: () => ['open', 'run-2', '--policy-file', '-', '--json'],
      stdin: text,
    })),
  // stage outputs and published reports, over the bound
  fc.integer({ min: 1, max: 64 }).map((maxBytes) => ({
    label: `stage output over ${maxBytes}`,
    argv: () => [
      'stage',
      RUN,
      'planning',
      '--finish',
      '--output',
      '-',
      '--max-bytes',
      String(maxBytes),
      '--json',
    ],
    stdin: 'x'.repeat(maxBytes + 1),
  })),
  mutatedReport.map((c) => ({
    ...c,
    label: `publish ${c.label}`,
    argv: (_dir: string, out: string) => [
      'publish',
      path.join(out, 'nested', 'round.json'),
      '--report',
      '-',
      '--json',
    ],
  })),
  fc.integer({ min: 1, max: 200 }).map((maxBytes) => ({
    label: `report over --max-bytes ${maxBytes}`,
    argv: () => ['record', RUN, '--report', '-', '--max-bytes', String(maxBytes), '--json'],
    stdin: JSON.stringify(valid()).padEnd(maxBytes + 1, ' '),
  })),
);

const hostile: fc.Arbitrary<Case> = fc.oneof(
  { arbitrary: mutatedReport, weight: 4 },
  { arbitrary: hostileMarkdown, weight: 2 },
  { arbitrary: hiddenFinding, weight: 1 },
  { arbitrary: hostileIds, weight: 1 },
  { arbitrary: hostilePaths, weight: 1 },
  { arbitrary: hostileOthers, weight: 2 },
);

/** Exactly one JSON object, on one line, and nothing else on stdout. */
const oneJsonObject = (stdout: string): Record<string, unknown> => {
  expect(stdout.endsWith('\n')).toBe(true);
  expect(stdout.slice(0, -1)).not.toContain('\n');
  const value = JSON.parse(stdout) as unknown;
  expect(typeof value === 'object' && value !== null && !Array.isArray(value)).toBe(true);
  return value as Record<string, unknown>;
};

/**
 * The run's record: every file of the store but the stage-output archive. `stage --finish`
 * archives its output (content-addressed, fsynced) before the event that names it is decided, so a
 * refused finish leaves an unreferenced object behind (src/operations/stage.ts): a known gap, left
 * to the store's owner, and the reason the archive is left out below. So is the fold checkpoint
 * (`<run>.fold`): a cache of the fold that any read may write, rebuilt from the log, not the record.
 */
const record = async (dir: string): Promise<Map<string, string>> =>
  new Map(
    [...(await snapshot(dir))].filter(
      ([file]) => !file.includes(`${path.sep}objects${path.sep}`) && !file.endsWith('.fold'),
    ),
  );

/** 1,200 hostile inputs under CI (numRuns is 1,000 there), a fifth of that in a local npm test */
const INPUTS = Math.round(numRuns * 1.2);

let store: string;
let out: string;

beforeAll(async () => {
  store = await tempDir('clearance-fuzz-');
  out = path.join(store, '..', `${path.basename(store)}-published`);
  await mkdir(out, { recursive: true });
  const opened = await runInProcess(['--dir', store, 'open', RUN, '--input-sha', sha('A'), '--json']);
  expect(opened.code).toBe(0);
});

describe('the command line under hostile input', () => {
  it('never exits 70, prints one JSON object, and refuses without touching the run (1,200 inputs in CI, in-process)', async () => {
    let refused = 0;
    const hidden = { cases: 0, accepted: [] as string[] };
    await fc.assert(
      fc.asyncProperty(hostile, async (c) => {
        const before = await record(store);
        const result = await runInProcess(
          ['--dir', store, ...c.argv(store, out)],
          c.stdin === undefined ? {} : { stdin: c.stdin },
        );
        expect(result.code, `${c.label}: ${result.stdout}`).not.toBe(70);
        const json = oneJsonObject(result.stdout);
        expect(json.ok).toBe(result.code === 0);
        if (c.hidesFinding === true) {
          hidden.cases += 1;
          if (result.code === 0) hidden.accepted.push(c.label);
        }
        if (result.code !== 0) {
          refused += 1;
          expect((json.error as { code: string }).code).not.toBe('internal');
          expect(await record(store), c.label).toEqual(before);
        }
      }),
      { numRuns: INPUTS, seed: 20261130 },
    );
    // the inputs are hostile: nearly all of them are refused (more than 1,000 of 1,200)
    expect(refused).toBeGreaterThan((INPUTS * 5) / 6);
    // a finding hidden in HTML is refused every time: none recorded (about one input in eleven)
    expect(hidden.cases).toBeGreaterThan(0);
    expect(hidden.accepted).toEqual([]);
  }, 300_000);

  it('refuses a finding or a decision in every place HTML hides it, each line with each place, the run untouched', async () => {
    // a store of its own: the one above is removed with the test that used it
    const dir = await tempDir('clearance-fuzz-hidden-');
    expect((await runInProcess(['--dir', dir, 'open', RUN, '--input-sha', sha('A'), '--json'])).code).toBe(0);
    const accepted: string[] = [];
    for (const line of HIDDEN_LINES) {
      for (const [place, hide] of HIDING_PLACES.entries()) {
        const before = await record(dir);
        const result = await runInProcess(['--dir', dir, 'record', RUN, '--findings-md', '-', '--json'], {
          stdin: `Verdict: open\n\n${hide(line)}\n`,
        });
        if (result.code === 0) accepted.push(`${line} in place ${place}`);
        else {
          expect((oneJsonObject(result.stdout).error as { code: string }).code).toBe('findings-md-invalid');
          expect(await record(dir)).toEqual(before);
        }
      }
    }
    expect(accepted).toEqual([]);
  });

  /** 20 spawned CLIs at full scale (CI), 5 in a local run: each costs a Node start. */
  const spawned = scaled(20, 5);
  it(`holds through real processes too (a sample of ${spawned})`, async () => {
    const cases = fc.sample(hostile, { numRuns: spawned, seed: 7 });
    const dir = await tempDir('clearance-fuzz-spawned-');
    const opened = await cli(['--dir', dir, 'open', RUN, '--input-sha', sha('A'), '--json']);
    expect(opened.code).toBe(0);
    for (const c of cases) {
      const before = await record(dir);
      const input = c.stdin === undefined ? undefined : Buffer.from(c.stdin).toString('latin1');
      // stdin goes through a file: the spawn helper writes strings, and some inputs are raw bytes
      const argv = c.argv(dir, out);
      const stdinFile = path.join(out, 'stdin.bin');
      if (c.stdin !== undefined) await writeFile(stdinFile, c.stdin);
      const result = await cli(
        ['--dir', dir, ...argv.map((a) => (a === '-' && input !== undefined ? stdinFile : a))],
        { process: true },
      );
      expect(result.code, `${c.label}: ${result.stdout}${result.stderr}`).not.toBe(70);
      oneJsonObject(result.stdout);
      if (result.code !== 0) expect(await record(dir), c.label).toEqual(before);
    }
  }, 300_000);
});
