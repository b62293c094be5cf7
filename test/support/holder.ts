import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';

const lockfileModule = createRequire(import.meta.url).resolve('proper-lockfile');

/** Another process holding a run's lock, as a concurrent clearance would (until killed). */
export const holdLock = async (log: string): Promise<ChildProcess> => {
  const script = `
    const lockfile = require(${JSON.stringify(lockfileModule)});
    lockfile.lock(${JSON.stringify(log)}, { realpath: false, lockfilePath: ${JSON.stringify(`${log}.lock`)}, stale: 10000 })
      .then(() => { process.stdout.write('locked\\n'); setInterval(() => {}, 1000); })
      .catch((e) => { console.error(e); process.exit(1); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  if (!chunk.toString().includes('locked')) throw new Error('holder did not take the lock');
  return child;
};

export const kill = async (child: ChildProcess): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
};
