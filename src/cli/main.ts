import { enableCompileCache } from './compile-cache.js';

// Everything else is imported after the compile cache is on, and each command only when it runs:
// start-up time is what a CI script calling clearance many times pays on every call.
enableCompileCache(process.env);
const { run } = await import('./program.js');

process.exitCode = await run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
});
