import { enableCompileCache } from './compile-cache.js';

// Everything else is imported after the compile cache is on, and each command only when it runs:
// start-up time is what a CI script calling clearance many times pays on every call.
enableCompileCache(process.env);
const { watchOutput } = await import('./output.js');
const { run } = await import('./program.js');

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

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  onInterrupt: (handler) => {
    process.on('SIGINT', handler);
    return () => process.off('SIGINT', handler);
  },
});
