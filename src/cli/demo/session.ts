import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Colors } from '../context.js';
import { run } from '../program.js';
import { shellLine } from './shell-line.js';

const execFileAsync = promisify(execFile);

/** One thing the demo did, as data: `clearance demo --json` lists them, and a test replays them. */
export type DemoAction =
  | Readonly<{ kind: 'clearance'; argv: ReadonlyArray<string>; exit: number }>
  | Readonly<{ kind: 'write'; file: string; text: string; mode?: number }>
  | Readonly<{ kind: 'git'; args: ReadonlyArray<string> }>;

export type DemoStep = Readonly<{ step: number; title: string; actions: ReadonlyArray<DemoAction> }>;

export type CommandOptions = Readonly<{
  /** the exit status the demo expects: any other is a fault in the demo, and it stops there */
  exit?: number;
  /** show only the output's first lines; the rest is marked as left out, never reworded */
  lines?: number;
}>;

export type WriteOptions = Readonly<{ show?: boolean; mode?: number }>;

/**
 * The demo as it runs: each `$ clearance …` it prints is that command line run through the CLI's
 * own `run`, in this process, with the working directory and environment the printed preamble
 * sets, followed by what it printed; a file it writes or a git command it runs is printed as what
 * it is. Everything is recorded as data, step by step.
 */
export type Session = Readonly<{
  step: (title: string) => void;
  /** the demo's own words, between the commands */
  note: (text: string) => void;
  /** write a file under the work directory (`file` relative to it) */
  write: (file: string, text: string, what: string, options?: WriteOptions) => Promise<void>;
  git: (...args: string[]) => Promise<void>;
  /** run `clearance <argv>`: its stdout, for the demo to read an answer from */
  clearance: (argv: ReadonlyArray<string>, options?: CommandOptions) => Promise<string>;
  steps: () => ReadonlyArray<DemoStep>;
  text: () => string;
}>;

export type SessionSetup = Readonly<{
  /** the directory every printed path is relative to: the process's working directory meanwhile */
  workdir: string;
  /** the environment the preamble's `export` gives each command */
  env: Readonly<Record<string, string | undefined>>;
  color: Colors;
}>;

const INDENT = '   ';
const OUTPUT = '     ';

/**
 * The user's GIT_* variables are dropped: GIT_DIR or GIT_INDEX_FILE (set when the demo runs inside
 * a git hook) would point the demo's git commands at the user's own repository.
 */
const gitEnv = (): NodeJS.ProcessEnv => ({
  ...Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_'))),
  LC_ALL: 'C',
});

const noInput = async function* (): AsyncGenerator<string> {};

export const session = ({ workdir, env, color: c }: SessionSetup): Session => {
  const out: string[] = [];
  const steps: Array<{ step: number; title: string; actions: DemoAction[] }> = [];
  const act = (action: DemoAction): void => {
    const current = steps.at(-1);
    if (current === undefined) throw new Error('demo: an action before the first step');
    current.actions.push(action);
  };
  const print = (indent: string, text: string): void => {
    for (const line of text.replace(/\n$/, '').split('\n'))
      out.push(line === '' ? indent.trimEnd() : `${indent}${line}`);
  };

  return {
    step: (title) => {
      steps.push({ step: steps.length + 1, title, actions: [] });
      out.push('', c.bold(`${steps.length}. ${title}`));
    },
    note: (text) => print(INDENT, text),
    write: async (file, text, what, options = {}) => {
      const at = path.join(workdir, file);
      await mkdir(path.dirname(at), { recursive: true });
      await writeFile(at, text, options.mode === undefined ? {} : { mode: options.mode });
      act({ kind: 'write', file, text, ...(options.mode === undefined ? {} : { mode: options.mode }) });
      print(INDENT, c.dim(`writes ${file}: ${what}`));
      if (options.show === true) print(`${OUTPUT}│ `, text);
    },
    git: async (...args) => {
      act({ kind: 'git', args });
      print(INDENT, c.dim(`$ ${shellLine(['git', ...args])}`));
      await execFileAsync('git', args, { cwd: workdir, env: gitEnv(), windowsHide: true });
    },
    clearance: async (argv, options = {}) => {
      // stdout and stderr in the order they were written, as a terminal shows them
      let shown = '';
      let stdout = '';
      const exit = await run(argv, {
        stdout: {
          write: (text: string) => {
            stdout += text;
            shown += text;
          },
        },
        stderr: {
          write: (text: string) => {
            shown += text;
          },
        },
        stdin: noInput(),
        env,
      });
      const expected = options.exit ?? 0;
      if (exit !== expected)
        throw new Error(`demo: clearance ${shellLine(argv)} exited ${exit}, not ${expected}:\n${shown}`);
      act({ kind: 'clearance', argv, exit });
      print(INDENT, c.dim(`$ ${shellLine(['clearance', ...argv])}`));
      const lines = shown.replace(/\n$/, '').split('\n');
      const kept = options.lines === undefined ? lines : lines.slice(0, options.lines);
      if (shown !== '') print(OUTPUT, kept.join('\n'));
      if (kept.length < lines.length) print(OUTPUT, c.dim(`… ${lines.length - kept.length} more lines`));
      if (exit !== 0) print(OUTPUT, c.dim(`(exit ${exit})`));
      return stdout;
    },
    steps: () => steps,
    text: () => out.join('\n'),
  };
};
