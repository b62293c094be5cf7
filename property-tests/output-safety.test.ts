import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type DomainEvent, PRESETS, roundRecorded } from '../src/index.js';
import { github } from '../src/operations/github.js';
import { encodeEvents } from '../src/store/log-format.js';
import { fileStore } from '../src/store/store.js';
import { importLog } from '../src/store/transfer.js';
import { blockedRun } from '../test/render/hostile-runs.js';
import {
  HOSTILE_STRINGS,
  rawControls,
  readAsRunner,
  runnerCommands,
} from '../test/support/actions-runner.js';
import { candidate, captured, opened, report, sha } from '../test/support/builders.js';
import { runInProcess } from '../test/support/in-process.js';
import { numRuns } from './runs.js';

/**
 * Whatever a reviewer's string holds, clearance's text output acts on nothing. One arbitrary string
 * is put into every field that reaches output (summary, evidence, file, category, section, reviewer,
 * a ruling's `by` and `why`, reasons, a failed attempt's detail, an absentee, a reproduction), in
 * runs folded from a log (as one written before the door checks, or imported, would hold them), and
 * into the arguments of commands that refuse it (an `inputSha`, a finding id, a stage, a name).
 * Every command's output, read as the GitHub Actions runner reads it (a workflow command at the
 * start of a line, the `##[` form anywhere in one, and no command at all between
 * `::stop-commands::<token>` and `::<token>::`), holds exactly the commands clearance meant to
 * print (none, or the annotations of `--format github`), and no raw control character. Under
 * `--format github`, every line but clearance's own annotations is inside a region that ends, its
 * token fresh each time whatever the reviewer wrote.
 */

/** Pieces a reviewer would try, and plain ones: what the arbitrary strings are made of. */
const PIECE = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.constantFrom(
    '\n',
    '\r',
    '\r\n',
    '\t',
    '::',
    '##[',
    ']',
    '\u001b',
    '\u0007',
    '\u009b',
    '\u007f',
    '\u0000',
  ),
  fc.constantFrom('\u202e', '\u2066', '\u2028', '\u0085', ' ', '%0A', '%25', '\\', '"', '`', '|', '<', '&'),
  fc.constantFrom('error', 'warning', 'notice', 'add-mask', 'stop-commands', 'set-output name=x', 'file=a'),
  fc.string({ minLength: 1, maxLength: 6, unit: 'grapheme' }),
  fc.integer({ min: 0, max: 0x2fff }).map((c) => String.fromCodePoint(c)),
);

/**
 * A string the rules of a log accept in every field: not blank (a category or summary must say
 * something) and well-formed Unicode (a lone surrogate has no UTF-8 form).
 */
const hostileString = fc
  .array(PIECE, { minLength: 1, maxLength: 8 })
  .map((pieces) => pieces.join(''))
  .filter((s) => s.trim() !== '' && !/[\uD800-\uDFFF]/u.test(s));

const OPEN = 'open-1';

/** An open run waiting for round 2 (its input captured): what a refusal of a hostile report answers. */
const openRun = (h: string): DomainEvent[] => {
  const found = candidate({ file: `src/${h}.js`, summary: h, category: h, evidence: h });
  return [
    opened(PRESETS.default, OPEN),
    captured(1, 'A'),
    roundRecorded(report(1, 'A', { runId: OPEN, candidates: [found] })),
    captured(2, 'B', { touched: [found.file] }),
  ];
};

const stores: string[] = [];
afterAll(() => {
  for (const dir of stores) rmSync(dir, { recursive: true, force: true });
});

/** A store holding the two runs, every value in them `h`, the log written as an import writes it. */
const storeWith = async (h: string): Promise<string> => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'clearance-output-safety-'));
  stores.push(dir);
  const store = fileStore(dir);
  const at = { at: '2026-12-01T00:00:00.000Z', by: h };
  for (const [runId, events] of [
    ['run-1', blockedRun(h)],
    [OPEN, openRun(h)],
  ] as const) {
    const encoded = encodeEvents(events, { seq: 0, hash: '0'.repeat(64) }, at);
    await importLog(store, runId, Buffer.from(encoded.text));
  }
  return dir;
};

type Said = Readonly<{ argv: ReadonlyArray<string>; text: string; github: boolean }>;

/** The commands whose `--format github` adds annotations: checked against what they meant, below. */
const ANNOTATING: ReadonlySet<string> = new Set(['status', 'findings', 'gate']);

/** Every command's text output on the store, the refusals included (stdout and stderr together). */
const outputsOf = async (dir: string, h: string): Promise<Said[]> => {
  const g = ['--dir', dir];
  const hostileReport = JSON.stringify({
    runId: OPEN,
    round: 2,
    inputSha: h,
    completed: true,
    decisions: [{ id: h, status: 'fixed', evidence: h }],
  });
  const unknownDecision = JSON.stringify({
    runId: OPEN,
    round: 2,
    inputSha: sha('B'),
    completed: true,
    decisions: [{ id: 'abcdef0123', status: 'fixed', evidence: h }],
  });
  const lines: Array<Readonly<{ argv: string[]; stdin?: string }>> = [];
  for (const run of ['run-1', OPEN])
    for (const command of [
      'status',
      'findings',
      'explain',
      'feedback',
      'replay',
      'next',
      'cost',
      'reproductions',
    ])
      lines.push({ argv: [...g, command, run] });
  lines.push(
    { argv: [...g, 'status'] },
    { argv: [...g, 'verify'] },
    { argv: [...g, 'sarif', 'run-1'] },
    { argv: [...g, 'gate', 'run-1'] },
    { argv: [...g, 'may', OPEN, '--stage', h] },
    { argv: [...g, 'may', OPEN, '--stage', 'planning', '--command', h] },
    { argv: [...g, 'record', OPEN, '--report', '-'], stdin: hostileReport },
    { argv: [...g, 'record', OPEN, '--report', '-'], stdin: unknownDecision },
    // refused (someone appended since seq 1), then accepted: a reason is printed both ways
    { argv: [...g, 'record', OPEN, '--end', 'none', '--reason', h, '--expect-seq', '1'] },
    { argv: [...g, 'record', OPEN, '--end', 'none', '--reason', h] },
    { argv: [...g, 'stage', OPEN, h, '--start'] },
    { argv: [...g, 'contribute', OPEN, '--reviewer', h, '--report', '-'], stdin: hostileReport },
    { argv: [...g, 'rule', 'run-1', h, '--withdrawn', '--why', h, '--by', h] },
    { argv: [...g, 'reproduce', OPEN, h, '--still-fails'] },
    { argv: [...g, 'capture', OPEN, '--input-sha', h, '--touched', h, '--expect-seq', '1'] },
    { argv: [...g, '--by', h, 'status', OPEN] },
    { argv: [...g, 'status', h] },
  );
  const said: Said[] = [];
  const say = async (argv: ReadonlyArray<string>, stdin: string | undefined, github = false) => {
    const r = await runInProcess(argv, stdin === undefined ? {} : { stdin });
    said.push({ argv, text: `${r.stdout}${r.stderr}`, github });
  };
  for (const { argv, stdin } of lines) {
    await say(argv, stdin);
    // under --json too: one line of JSON, nothing in it for a runner or a terminal
    await say([...argv, '--json'], stdin);
    // for a runner's log: the text, refusals included, where the runner acts on nothing
    const command = argv[argv[2] === '--by' ? 4 : 2] ?? '';
    if (!ANNOTATING.has(command)) await say([...argv, '--format', 'github'], stdin, true);
  }
  return said;
};

/** What `--format github` means to print: the annotation levels of the annotations it shows. */
const annotationsMeant = async (dir: string, runId: string, findings?: 'open'): Promise<string[]> => {
  const shown = await github(
    { store: fileStore(dir), by: 'tester' },
    { runId, ...(findings === undefined ? {} : { findings }) },
  );
  const perLevel = new Map<string, number>();
  return shown.annotations.flatMap((a) => {
    const n = (perLevel.get(a.level) ?? 0) + 1;
    perLevel.set(a.level, n);
    return n <= 10 ? [a.level] : [];
  });
};

/**
 * `--format github` output as the runner reads it: it acts on exactly `meant`; outside a stopped
 * region there is nothing but those commands; every region ends, its token 128 random bits.
 * Returns the tokens.
 */
const readsAsMeant = (text: string, meant: ReadonlyArray<string>, label: string): string[] => {
  const read = readAsRunner(text);
  expect(read.acted, label).toEqual(meant);
  expect(
    read.outside.filter((line) => line !== ''),
    label,
  ).toHaveLength(meant.length);
  for (const region of read.regions) {
    expect(region.resumed, label).toBe(true);
    expect(region.token, label).toMatch(/^[0-9a-f]{32}$/);
  }
  expect(rawControls(text), label).toEqual([]);
  return read.regions.map((r) => r.token);
};

describe('the text every command prints, whatever a reviewer wrote', () => {
  it(
    'holds only the workflow commands clearance meant, and no raw control character',
    async () => {
      await fc.assert(
        fc.asyncProperty(hostileString, async (h) => {
          const dir = await storeWith(h);
          const tokens: string[] = [];
          for (const said of await outputsOf(dir, h)) {
            const label = said.argv.join(' ');
            if (said.github) tokens.push(...readsAsMeant(said.text, [], label));
            else expect(runnerCommands(said.text), label).toEqual([]);
            expect(rawControls(said.text), label).toEqual([]);
          }
          for (const [runId, command] of [
            ['run-1', 'status'],
            ['run-1', 'findings'],
            [OPEN, 'findings'],
            ['run-1', 'gate'],
          ] as const) {
            const r = await runInProcess(['--dir', dir, command, runId, '--format', 'github']);
            const meant =
              command === 'gate'
                ? ['error', ...(await annotationsMeant(dir, runId)).slice(1)]
                : await annotationsMeant(dir, runId);
            const label = `${command} ${runId} --format github`;
            const found = readsAsMeant(`${r.stdout}${r.stderr}`, meant, label);
            // the command's text is in the log, where the runner acts on nothing
            expect(found, label).toHaveLength(1);
            tokens.push(...found);
          }
          // a token is fresh each time: nothing the reviewer's text holds leads to it
          expect(new Set(tokens).size).toBe(tokens.length);
          rmSync(dir, { recursive: true, force: true });
        }),
        { numRuns },
      );
    },
    // a run folds two logs and runs about a hundred commands in process: at 1,000 runs in CI, minutes
    30 * 60_000,
  );

  it('the reader finds what it must: the check can fail', () => {
    expect(runnerCommands('ok\n::error::forged\nx ##[warning]y')).toEqual(['error', 'warning']);
    expect(rawControls('a\u001bb')).toEqual(['U+001B']);
    // a region that a reviewer's line ends early leaves the rest outside, where it acts
    expect(
      readAsRunner('::stop-commands::0123456789abcdef\n::0123456789ABCDEF::\n::add-mask::x').acted,
    ).toEqual(['add-mask']);
  });
});
