import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DemoAction, DemoStep } from '../../src/cli/demo/session.js';
import { type CliResult, cli } from '../support/cli.js';

const execFileAsync = promisify(execFile);

type DemoJson = Readonly<{
  dir: string;
  workdir: string;
  runs: ReadonlyArray<Record<string, unknown>>;
  steps: ReadonlyArray<DemoStep>;
}>;

/** A store the demo must not use: a person's own CLEARANCE_STORE, which comes before CLEARANCE_DIR. */
const USERS_STORE = 'postgres://nobody@demo.invalid/not-this-one';

/**
 * Command lines as a person's shell splits them: each line is handed to a real `sh` after `set --`,
 * which prints back the words it made. A line the demo quoted wrongly splits differently here.
 */
const shellSplit = async (lines: ReadonlyArray<string>): Promise<string[][]> => {
  const script = lines
    .map((line) => `set -- ${line}\nfor w in "$@"; do printf '%s\\037' "$w"; done; printf '\\036'`)
    .join('\n');
  const { stdout } = await execFileAsync('sh', ['-c', script]);
  return stdout
    .split('\x1e')
    .slice(0, -1)
    .map((words) => words.split('\x1f').slice(0, -1));
};

/** The demo's text, step by step: each numbered title and the lines it printed as actions. */
const printedSteps = (text: string) => {
  const steps: Array<{ step: number; title: string; actions: string[] }> = [];
  for (const line of text.split('\n')) {
    const header = /^(\d+)\. (.*)$/.exec(line);
    if (header !== null) steps.push({ step: Number(header[1]), title: header[2] as string, actions: [] });
    // actions are printed three spaces in; what a command printed, five
    else if (/^ {3}(\$ |writes )/.test(line)) steps.at(-1)?.actions.push(line.slice(3));
  }
  return steps;
};

const gitEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_'))),
  LC_ALL: 'C',
});

/** Every command line the demo printed (clearance's and git's), as a shell splits it, in order. */
const printedCommands = async (): Promise<string[][]> =>
  shellSplit(
    printedSteps(demo.stdout).flatMap((s) =>
      s.actions.filter((a) => a.startsWith('$ ')).map((a) => a.slice(2)),
    ),
  );

let tmp: string;
let demo: CliResult;
let json: DemoJson;

beforeAll(async () => {
  // a TMPDIR of its own, so that everything the demo leaves is in sight; a real process, since
  // the demo reads where to make its directory from the process's environment
  tmp = await mkdtemp(path.join(os.tmpdir(), 'clearance-demo-test-'));
  const jsonFile = path.join(tmp, 'demo.json');
  await mkdir(path.join(tmp, 'tmp'));
  demo = await cli(['demo', '--json-file', jsonFile], {
    process: true,
    env: { TMPDIR: path.join(tmp, 'tmp'), CLEARANCE_STORE: USERS_STORE },
  });
  json = JSON.parse(await readFile(jsonFile, 'utf8')) as DemoJson;
});

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('clearance demo', () => {
  it('runs whole loops in one store: converged, blocked, gated, staged, partial, and ruled', async () => {
    expect(demo.code, demo.stderr).toBe(0);
    expect(json.runs).toEqual([
      { runId: 'demo-converges', status: 'converged' },
      { runId: 'demo-blocked', status: 'converged', convergedBy: 'Ada Lovelace' },
      { runId: 'demo-gate', status: 'converged' },
      { runId: 'demo-checks', status: 'converged' },
      { runId: 'demo-staged', status: 'blocked' },
      { runId: 'demo-panel', status: 'converged' },
    ]);
    const verify = await cli(['--dir', json.dir, 'verify', '--json']);
    expect(verify.json.ok).toBe(true);
  });

  it('leaves one work directory holding one store, and names both', async () => {
    // the demo made one directory in TMPDIR, and every store is a directory with runs/ in it
    expect(await readdir(path.join(tmp, 'tmp'))).toEqual([path.basename(json.workdir)]);
    const stores = (await readdir(json.workdir, { recursive: true }))
      .filter((entry) => path.basename(entry) === 'runs')
      .map((entry) => path.dirname(path.join(json.workdir, entry)));
    expect(stores).toEqual([json.dir]);
    expect(path.dirname(json.dir)).toBe(json.workdir);
    // the preamble sets what every command ran with, and a person's shell reads it so
    const preamble = demo.stdout.split('\n\n')[0]?.split('\n') ?? [];
    const set = preamble.filter((line) => line.startsWith('   $ ')).map((line) => line.slice(5));
    expect(await shellSplit(set)).toEqual([
      ['cd', json.workdir],
      ['unset', 'CLEARANCE_STORE'],
      ['export', `CLEARANCE_DIR=${json.dir}`, 'CLEARANCE_ACTOR=demo'],
    ]);
    // the closing hint names the work directory and the store, and works from a clone, no alias
    const closing = demo.stdout.slice(demo.stdout.lastIndexOf('\n\n')).trim().split('\n');
    expect(closing[0]).toBe(`The demo left its files in ${json.workdir}, and its one store in ${json.dir}.`);
    expect(closing[1]).toMatch(/^Look around, from the clone: npx clearance /);
    const [hint] = await shellSplit([(closing[1] as string).replace(/^.*: (?=npx )/, '')]);
    expect(hint?.slice(0, 2)).toEqual(['npx', 'clearance']);
    const status = await cli(hint?.slice(2) ?? [], { cwd: tmp });
    expect(status.code).toBe(0);
    expect(status.stdout.trim().split('\n')).toHaveLength(6);
  });

  it('prints each step with its commands, each the very command line it ran', async () => {
    const printed = printedSteps(demo.stdout);
    // consecutive steps, the same in the text and the record, each with a clearance command
    expect(printed.map((s) => s.step)).toEqual(printed.map((_, n) => n + 1));
    expect(printed.map((s) => [s.step, s.title])).toEqual(json.steps.map((s) => [s.step, s.title]));
    for (const step of json.steps)
      expect(
        step.actions.some((a) => a.kind === 'clearance'),
        step.title,
      ).toBe(true);

    const split = await printedCommands();
    const ran = json.steps.flatMap((s) =>
      s.actions.flatMap((a: DemoAction) =>
        a.kind === 'clearance' ? [['clearance', ...a.argv]] : a.kind === 'git' ? [['git', ...a.args]] : [],
      ),
    );
    expect(split).toEqual(ran);
    // and in the same order as the files it wrote
    expect(
      printed.map((s) => s.actions.map((a) => (a.startsWith('$ ') ? a.split(' ')[1] : 'write'))),
    ).toEqual(json.steps.map((s) => s.actions.map((a) => (a.kind === 'write' ? 'write' : a.kind))));
    const written = printed.flatMap((s) => s.actions.filter((a) => a.startsWith('writes ')));
    expect(written.map((w) => /^writes (.*?): /.exec(w)?.[1])).toEqual(
      json.steps.flatMap((s) => s.actions.flatMap((a) => (a.kind === 'write' ? [a.file] : []))),
    );
    // a file the demo wrote holds what it recorded (its last write, where it wrote one twice)
    const last = new Map(
      json.steps.flatMap((s) =>
        s.actions.flatMap((a) => (a.kind === 'write' ? [[a.file, a.text] as const] : [])),
      ),
    );
    for (const [file, text] of last)
      expect(await readFile(path.join(json.workdir, file), 'utf8'), file).toBe(text);
  });

  it('gives the same exit statuses when its steps are done again, from a fresh directory and store', async () => {
    const workdir = path.join(tmp, 'again');
    const store = path.join(workdir, 'store');
    await mkdir(workdir);
    const env = { CLEARANCE_DIR: store, CLEARANCE_ACTOR: 'demo', CLEARANCE_STORE: '' };
    // the commands as printed; the files as the record says they were written, each at its turn
    const commands = await printedCommands();
    const exits: Array<readonly [string, number]> = [];
    for (const step of json.steps)
      for (const action of step.actions) {
        if (action.kind === 'write') {
          await mkdir(path.dirname(path.join(workdir, action.file)), { recursive: true });
          await writeFile(path.join(workdir, action.file), action.text, { mode: action.mode ?? 0o644 });
          continue;
        }
        const [program, ...args] = commands.shift() ?? [];
        if (program === 'git') await execFileAsync('git', args, { cwd: workdir, env: gitEnv() });
        else {
          const again = await cli(args, { cwd: workdir, env });
          exits.push([`${step.step}: ${program} ${args.join(' ')}`, again.code]);
        }
      }
    expect(commands).toEqual([]);
    expect(exits).toEqual(
      json.steps.flatMap((s) =>
        s.actions.flatMap((a) =>
          a.kind === 'clearance' ? [[`${s.step}: clearance ${a.argv.join(' ')}`, a.exit] as const] : [],
        ),
      ),
    );
    // the refusals among them, too: a demo that only showed successes would prove little
    expect(exits.filter(([, code]) => code !== 0).length).toBeGreaterThanOrEqual(10);
    expect((await stat(path.join(store, 'runs'))).isDirectory()).toBe(true);
  });

  it('the README tells the demo as it runs: as many loops as it opens runs', async () => {
    const opened = demo.stdout.match(/^ {3}\$ clearance open /gm)?.length ?? 0;
    const readme = await readFile(path.join(import.meta.dirname, '../../README.md'), 'utf8');
    const words = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
    expect(readme).toContain(`\`npx clearance demo\` runs ${words[opened]} loops`);
  });

  it('shows a round on unchanged bytes refused and a late nit deferred, kept for a follow-up', () => {
    const section = demo.stdout.slice(0, demo.stdout.indexOf('A second run, demo-blocked'));
    expect(section).toMatch(
      /error: the input captured for round 2 \([0-9a-f]{40}\) is the one round 1 reviewed.*\[unchanged-input\]/,
    );
    expect(section).toMatch(
      /round 2 of demo-converges recorded: converged\n.*open → fixed\n\s+deferred nit [0-9a-f]{12} src\/format\.js:12 Prefer const for a binding that is never reassigned \(nit is no longer admitted in round 2\): kept for a follow-up/,
    );
  });

  it('shows a staged run whose every spending is a command shown, the totals theirs', () => {
    const section = demo.stdout.slice(demo.stdout.indexOf('A staged run, demo-staged'));
    const costs = [
      ...section.matchAll(/^ {3}\$ clearance stage demo-staged \S+ --finish .*--cost usd=([0-9.]+)/gm),
    ];
    const cents = costs.reduce((sum, m) => sum + Math.round(Number(m[1]) * 100), 0);
    expect(cents).toBe(105);
    expect(section).toContain('demo-staged: spent $1.05 of $1.00');
    expect(section).toContain('$0.64 spent + $0.40 more of a budget of $1.00');
    // the policy file shown is the policy the run has
    expect(section).toContain('$ clearance open demo-staged --policy-file staged/staged.json');
    expect(section).toContain('opened run demo-staged (policy staged, up to 3 rounds)');
  });

  it('shows a round from three reviewers: a merge with its corroboration, a refuted candidate dropped, an absent reviewer named, then convergence', () => {
    const section = demo.stdout.slice(demo.stdout.indexOf('A panel, demo-panel'));
    const say = (line: string) => expect(section).toContain(line);
    say('$ clearance contribute demo-panel --reviewer security --report panel/security-1.json');
    say('$ clearance contribute demo-panel --reviewer correctness --report panel/correctness-1.json');
    say('$ clearance contribute demo-panel --reviewer verifier --report panel/verifier-1.json');
    say('$ clearance record demo-panel --merge');
    say(
      'merge of 3 contribution(s): security (2 candidate(s)), correctness (2 candidate(s)), verifier (0 candidate(s)); absent: style (missing); recorded as partial',
    );
    // one finding from the two candidates on src/service.js:42, proposed by both
    say('proposed by correctness, security (corroborated 2×)');
    expect(section).toMatch(/merged from [0-9a-f]{12} \(security, src\/service\.js:42\) by security/);
    // the verifier's refuted candidate is no finding, and stays on the record with its evidence
    expect(section).toMatch(
      /refuted in round 1, dropped: [0-9a-f]{12} \[major\] src\/cache\.js:7 Cached responses may leak across users \(by verifier: /,
    );
    expect(section).not.toMatch(/\+ [0-9a-f]{12} major src\/cache\.js/);
    say('round 1 ended partial: absent: style (missing) (it cannot converge the run)');
    say('round 2 of demo-panel recorded: converged');
    say('style absent (missing): handed in no report before the round was closed');
    expect(demo.stdout).toMatch(/^ {5}demo-panel +converged +round 2\/4$/m);
    // and a required CI check: the report waits for it, its failure ends a round, then it passes
    const ci = demo.stdout.slice(demo.stdout.indexOf('A run whose policy requires CI: demo-checks'));
    expect(ci).toMatch(/error: no CI checks were recorded for round 1's input/);
    expect(ci).toContain(
      'round 1 ended ci_failed: required check test (https://github.com/acme/service/actions/runs/4711/job/1) failed',
    );
    expect(ci).toContain('optional check(s) failed, noted (they never end a round): docs');
    expect(ci).toMatch(/approved: the artifact hashes to [0-9a-f]{12}, as round 2 reviewed/);
  });
});
