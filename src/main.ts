import { watchOutput } from './cli/output.js';
import { run } from './cli/program.js';

// The program's entry, the first chunk dist/cli.js loads and starts (src/cli/launcher.ts): the
// command line, with the MCP server handed in as the one service it starts but never imports (the
// two front doors stand side by side on the operations layer; only this entry knows both). Each
// command is imported only when it runs: start-up time is what a CI script calling clearance many
// times pays. No top-level await: the bundle's chunks are classic scripts, loaded through V8's code
// cache. `run` is exported for the tests of the built CLI that run several command lines in one process.
export { run };

/** Run this process's command line and set its exit status. */
export const start = (): void => {
  const exit = (status: number): void => process.exit(status);
  const tell = (message: string): void => {
    try {
      process.stderr.write(message);
    } catch {
      // stderr is gone too: the exit status is all that is left to say it
    }
  };
  watchOutput(process.stdout, exit, tell);
  watchOutput(process.stderr, exit, () => undefined);

  void run(
    process.argv.slice(2),
    {
      stdout: process.stdout,
      stderr: process.stderr,
      // the stream is made on the first read: Node builds process.stdin eagerly on first access,
      // with the stream modules behind it, and only a `-` input ever reads it
      stdin: { [Symbol.asyncIterator]: () => process.stdin[Symbol.asyncIterator]() },
      env: process.env,
      onInterrupt: (handler) => {
        process.on('SIGINT', handler);
        return () => process.off('SIGINT', handler);
      },
    },
    // loaded only when `clearance mcp` serves: no other command's start-up evaluates the MCP SDK
    { serveMcp: async (options) => (await import('./mcp/serve.js')).serve(options) },
  ).then((status) => {
    process.exitCode = status;
  });
};
