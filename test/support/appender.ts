import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const STORE = pathToFileURL(
  path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../lib/store/index.js'),
).href;

/**
 * Another process appending to a run through the built library (`npm run build` first): it folds
 * under the lock, says `folded`, and then waits inside its critical section, holding the lock,
 * until the file `go` exists, so a test can pause or kill it there. It then appends a capture of
 * `inputSha` and says `appended <seq>`, or `refused <code>` (exit 5).
 */
export const startAppender = async (
  dir: string,
  runId: string,
  inputSha: string,
  go: string,
): Promise<{ child: ChildProcess; said: () => string; exited: Promise<number | null> }> => {
  const script = `
    import { existsSync, writeSync } from 'node:fs';
    import { append } from ${JSON.stringify(STORE)};
    const [dir, runId, inputSha, go] = process.argv.slice(1);
    try {
      const result = await append(dir, runId, (state) => {
        writeSync(1, 'folded\\n');
        while (!existsSync(go)) {}
        const data = { round: state.round + 1, inputSha, touchedFiles: [], renames: [] };
        return { _tag: 'Right', right: [{ type: 'revision.captured', data }] };
      }, { by: 'child' });
      writeSync(1, 'appended ' + result.appended[0].seq + '\\n');
    } catch (e) {
      writeSync(1, 'refused ' + e.code + '\\n');
      process.exitCode = 5;
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir, runId, inputSha, go], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  while (!out.includes('folded')) {
    if (child.exitCode !== null) throw new Error(`the appender exited early: ${out}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return { child, said: () => out, exited };
};
