import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AppendStep } from '../../src/store/lock-steps.js';

const lib = (file: string) =>
  pathToFileURL(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../lib/store', file)).href;

export type StoppingAppender = Readonly<{
  child: ChildProcess;
  pid: number;
  said: () => string;
  exited: Promise<number | null>;
}>;

/** Is the process stopped (state `T` in `/proc/<pid>/stat`)? Where there is no `/proc`, assume so. */
const isStopped = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('T');
  } catch {
    return process.platform !== 'linux';
  }
};

/**
 * Another process appending a capture of `inputSha` to a run through the built library (`npm run
 * build` first), which stops itself (SIGSTOP) the instant it reaches `step` of the append
 * protocol (`src/store/lock-steps.ts`), so a test can kill it there, or take its lock over and
 * let it resume. Resolves once it is stopped. When it resumes it says `appended <seq>`, or
 * `refused <code>` (exit 5). `options` are the append's (a waiter's `staleMs`, say).
 */
export const startStoppingAppender = async (
  dir: string,
  runId: string,
  inputSha: string,
  step: AppendStep,
  options: Readonly<Record<string, number>> = {},
): Promise<StoppingAppender> => {
  const script = `
    import { writeSync } from 'node:fs';
    import { append } from ${JSON.stringify(lib('index.js'))};
    import { observeAppendSteps } from ${JSON.stringify(lib('lock-steps.js'))};
    const [dir, runId, inputSha, step, options] = process.argv.slice(1);
    observeAppendSteps((reached) => {
      if (reached !== step) return;
      writeSync(1, 'at ' + reached + '\\n');
      process.kill(process.pid, 'SIGSTOP');
    });
    try {
      const result = await append(dir, runId, (state) => {
        const data = { round: state.round + 1, inputSha, touchedFiles: [], renames: [] };
        return { _tag: 'Right', right: [{ type: 'revision.captured', data }] };
      }, { by: 'child', ...JSON.parse(options) });
      writeSync(1, 'appended ' + result.appended[0].seq + '\\n');
    } catch (e) {
      writeSync(1, 'refused ' + e.code + '\\n');
      process.exitCode = 5;
    }`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, dir, runId, inputSha, step, JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const pid = child.pid as number;
  while (!(out.includes(`at ${step}`) && isStopped(pid))) {
    if (child.exitCode !== null) throw new Error(`the appender exited before ${step}: ${out}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return { child, pid, said: () => out, exited };
};
