import { watchOutput } from './output.js';
import { run } from './program.js';

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
