import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
}>;

/** Start the built CLI as a real process; `result` settles when it exits. */
export const spawnCli = (
  args: ReadonlyArray<string>,
  options: CliOptions = {},
): { pid: number; result: Promise<CliResult> } => {
  let pid = -1;
  const result = new Promise<CliResult>((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? CLI, ...args], {
      env: { ...process.env, NO_COLOR: '1', CLEARANCE_ACTOR: 'tester', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.gid ?? options.uid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(stdout) as Record<string, unknown>;
      } catch {
        // not JSON: human output
      }
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
    pid = child.pid ?? -1;
    child.stdin.end(options.input ?? '');
  });
  return { pid, result };
};

/** Run the built CLI as a real process; `json` is stdout parsed when it is one JSON object. */
export const cli = (args: ReadonlyArray<string>, options: CliOptions = {}): Promise<CliResult> =>
  spawnCli(args, options).result;
