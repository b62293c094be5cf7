import { type ChildProcessByStdio, type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { forgetCheckpoints } from '../../src/store/checkpoint.js';
import { runInProcess } from './in-process.js';

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/cli.js');

export type CliResult = Readonly<{
  code: number;
  stdout: string;
  stderr: string;
  json: Record<string, unknown>;
}>;

export type CliOptions = Readonly<{
  input?: string;
  env?: NodeJS.ProcessEnv;
  uid?: number;
  gid?: number;
  cwd?: string;
  /** the CLI bundle to run, when not the checkout's dist/cli.js (a copy another uid can reach) */
  entry?: string;
  /**
   * Run the built bundle as a real process. Only where the process is the point: racing
   * processes, signals, a TTY, another uid, and the one smoke test per exit status.
   * `uid` and `entry` imply it.
   */
  process?: boolean;
}>;

/** What the command line sees of the environment: ours, then the test's, colour off, a fixed actor. */
const environmentOf = (options: CliOptions): NodeJS.ProcessEnv => ({
  ...process.env,
  NO_COLOR: '1',
  CLEARANCE_ACTOR: 'tester',
  ...options.env,
});

const jsonOf = (stdout: string): Record<string, unknown> => {
  try {
    return JSON.parse(stdout) as Record<string, unknown>;
  } catch {
    return {}; // not JSON: human output
  }
};

let reachable: string | undefined;

/**
 * The built CLI (`dist/cli.js` and the chunks it loads), copied where another uid can run it: the
 * checkout may sit in a directory only its owner can enter (root's home, a `mktemp -d` folder),
 * while the temporary directory is open to every user. Copied once per test process.
 */
const entryForAnotherUser = (): string => {
  if (reachable === undefined) {
    const home = mkdtempSync(path.join(os.tmpdir(), 'clearance-cli-'));
    for (let dir = path.dirname(home); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0)
        throw new Error(
          `${dir} (mode ${(mode & 0o777).toString(8)}) is closed to other users: set TMPDIR to a directory every user can reach`,
        );
    }
    cpSync(path.dirname(CLI), path.join(home, 'dist'), { recursive: true });
    for (const dir of [home, path.join(home, 'dist')]) chmodSync(dir, 0o755);
    reachable = path.join(home, 'dist', path.basename(CLI));
    process.once('exit', () => rmSync(home, { recursive: true, force: true }));
  }
  return reachable;
};

/** What a child printed and how it ended, once it has exited. */
const outcomeOf = (child: ChildProcessWithoutNullStreams | ChildProcessByStdio<null, Readable, Readable>) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });

/** Start the built CLI as a real process; `result` settles when it exits. */
export const spawnCli = (
  args: ReadonlyArray<string>,
  options: CliOptions = {},
): { pid: number; result: Promise<CliResult> } => {
  const entry = options.entry ?? (options.uid === undefined ? CLI : entryForAnotherUser());
  const child = spawn(process.execPath, [entry, ...args], {
    env: environmentOf(options),
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
  });
  const result = outcomeOf(child).then((r) => ({ ...r, json: jsonOf(r.stdout) }));
  child.stdin.end(options.input ?? '');
  return { pid: child.pid ?? -1, result };
};

/**
 * Variables the CLI does not read through its `Io` but hands to the programs it starts (git reads
 * GIT_TRACE, PATH, HOME, …), where a run's environment differs from this process's.
 */
const forChildren = (env: NodeJS.ProcessEnv | undefined): Array<[string, string | undefined]> =>
  Object.entries(env ?? {}).filter(
    ([name, value]) => /^(GIT_|PATH$|HOME$|XDG_|LC_|LANG)/.test(name) && value !== process.env[name],
  );

/**
 * In-process runs under way, and whether one of them changed the process: its working directory,
 * or the variables its children inherit. Both are the process's own, so a run that needs another
 * must be alone: asking for two at once fails loudly rather than letting one run see the other's.
 */
let running = 0;
let changed = false;

const runHere = async (args: ReadonlyArray<string>, options: CliOptions): Promise<CliResult> => {
  const inherited = forChildren(options.env);
  const changes = options.cwd !== undefined || inherited.length > 0;
  if (changed || (changes && running > 0)) {
    throw new Error(
      'in-process CLI runs with a cwd or an environment for git cannot overlap others: await each, or pass { process: true }',
    );
  }
  const home = process.cwd();
  const before = inherited.map(([name]) => [name, process.env[name]] as const);
  running += 1;
  try {
    changed = changes;
    if (options.cwd !== undefined) process.chdir(options.cwd);
    // what git and the other programs the CLI starts inherit, as a process of its own would pass it
    for (const [name, value] of inherited) setVariable(name, value);
    // a fresh process remembers no fold checkpoint: neither does a fresh in-process run
    forgetCheckpoints();
    const result = await runInProcess(args, {
      ...(options.input === undefined ? {} : { stdin: options.input }),
      env: environmentOf(options),
    });
    return { code: result.code, stdout: result.stdout, stderr: result.stderr, json: jsonOf(result.stdout) };
  } finally {
    for (const [name, value] of before) setVariable(name, value);
    if (options.cwd !== undefined) process.chdir(home);
    changed = false;
    running -= 1;
  }
};

const setVariable = (name: string, value: string | undefined): void => {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
};

/**
 * Run the CLI; `json` is stdout parsed when it is one JSON object. By default in this process,
 * through `run(argv, io)` with captured streams (no process start: the suite's time went there);
 * `{ process: true }` (or `uid`/`entry`) runs the built bundle as a real process.
 */
export const cli = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliResult> =>
  options.process === true || options.uid !== undefined || options.entry !== undefined
    ? spawnCli(args, options).result
    : runHere(args, options);

/**
 * What runs the commands of `cliEach` in one process of the built bundle: it loads the program's
 * entry chunk the launcher names (which exports `run` and starts nothing by itself), runs each command line through its `run(argv, io)` in turn, and prints
 * every outcome as one JSON array.
 */
const EACH = `
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
const [entry, list] = process.argv.slice(1);
const main = /\\bmain:"(chunks\\/main-[A-Z0-9]+\\.js)"/.exec(readFileSync(entry, 'utf8'))?.[1];
if (main === undefined) throw new Error(entry + ' names no program chunk');
const mainFile = path.join(path.dirname(entry), main);
// the chunks are CommonJS-shaped scripts (dist/package.json): Node's own require runs them, uncached
const { run } = createRequire(mainFile)(mainFile);
const outcomes = [];
for (const argv of JSON.parse(list)) {
  let stdout = '';
  let stderr = '';
  const write = (to) => (text) => { if (to === 1) stdout += text; else stderr += text; return true; };
  const code = await run(argv, { stdout: { write: write(1) }, stderr: { write: write(2) }, stdin: (async function* () {})(), env: process.env });
  outcomes.push({ code, stdout, stderr });
}
process.stdout.write(JSON.stringify(outcomes));
`;

/**
 * Several commands, one after another, each as `cli` would run it. With a `uid` they share one
 * process of the built bundle as that user (one Node start instead of one each: the uid is the
 * point, not a process per command); without one, each runs in this process. No stdin.
 */
export const cliEach = async (
  argvs: ReadonlyArray<ReadonlyArray<string>>,
  options: CliOptions = {},
): Promise<CliResult[]> => {
  if (options.uid === undefined) {
    const results: CliResult[] = [];
    for (const args of argvs) results.push(await cli(args, options));
    return results;
  }
  const entry = options.entry ?? entryForAnotherUser();
  const child = spawn(process.execPath, ['--input-type=module', '-e', EACH, entry, JSON.stringify(argvs)], {
    env: environmentOf(options),
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    uid: options.uid,
    gid: options.gid ?? options.uid,
  });
  const { code, stdout, stderr } = await outcomeOf(child);
  if (code !== 0) throw new Error(`the commands as uid ${options.uid} did not run (exit ${code}): ${stderr}`);
  return (JSON.parse(stdout) as Array<Omit<CliResult, 'json'>>).map((r) => ({
    ...r,
    json: jsonOf(r.stdout),
  }));
};
