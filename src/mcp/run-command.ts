import type { Io } from '../cli/io.js';
import { run } from '../cli/program.js';

/** What one command printed under `--json`, with its exit status. */
export type CommandResult = Readonly<{ code: number; json: Record<string, unknown> }>;

export type RunOptions = Readonly<{
  /** the global options the server was started with (`--dir`, `--by`, `--lock-timeout`) */
  globals: ReadonlyArray<string>;
  env: Readonly<Record<string, string | undefined>>;
  /** handed to the command as its standard input (`--report -`, `--findings-md -`) */
  stdin?: string;
  /** the client's cancellation: it interrupts a wait as Ctrl-C does at a terminal */
  signal?: AbortSignal;
}>;

/**
 * Run one clearance command in this process through the CLI's own `run(argv, io)`, with `--json`,
 * and hand back the one object it printed. The MCP tools are this and nothing more, so a tool's
 * answer is the command's answer, field for field, and each command has one implementation.
 */
export const runCommand = async (
  argv: ReadonlyArray<string>,
  options: RunOptions,
): Promise<CommandResult> => {
  let stdout = '';
  let stderr = '';
  const input = options.stdin;
  const { signal } = options;
  const io: Io = {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
    stdin: (async function* () {
      if (input !== undefined) yield input;
    })(),
    env: options.env,
    ...(signal === undefined
      ? {}
      : {
          onInterrupt: (handler: () => void) => {
            if (signal.aborted) queueMicrotask(handler);
            signal.addEventListener('abort', handler, { once: true });
            return () => signal.removeEventListener('abort', handler);
          },
        }),
  };
  const code = await run([...options.globals, ...argv, '--json'], io);
  const printed = stdout.trim();
  try {
    const json = JSON.parse(printed) as unknown;
    if (typeof json === 'object' && json !== null && !Array.isArray(json))
      return { code, json: json as Record<string, unknown> };
  } catch {
    // fall through: a command that printed anything but one object is a bug, said so below
  }
  return {
    code,
    json: {
      ok: false,
      error: {
        code: 'internal',
        message: `clearance ${argv[0] ?? ''} printed no JSON object (exit ${code}): ${(printed || stderr).slice(0, 500)}`,
      },
    },
  };
};
