import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * The handoff library (the completion protocol) as one plain ES module in `dir`, so that a child `node` process (which
 * cannot load TypeScript) runs the code under test, not a copy of it or a stale build in lib/.
 */
export const bundleCompletion = async (dir: string): Promise<string> => {
  const outfile = join(dir, 'completion.bundle.mjs');
  await build({
    entryPoints: [new URL('../../../src/handoff/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    // as scripts/bundle-cli.mjs: jsonc-parser's UMD `main` does not bundle, its ES module build does
    alias: {
      'jsonc-parser': new URL('../../../node_modules/jsonc-parser/lib/esm/main.js', import.meta.url).pathname,
    },
  });
  return pathToFileURL(outfile).href;
};

export type NodeProcess = Readonly<{
  child: ChildProcess;
  /** resolves when the child has printed this line on stdout */
  printed: (line: string) => Promise<void>;
  /** everything printed on stdout so far */
  stdout: () => string;
  /** resolves with the exit code (or the signal) once the child has exited */
  exited: Promise<number | string>;
  stop: () => Promise<void>;
}>;

/** Run an ES module script in a real `node` child process. */
export const runNode = async (dir: string, name: string, script: string): Promise<NodeProcess> => {
  const file = join(dir, name);
  await writeFile(file, script);
  const child = spawn(process.execPath, [file], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const watchers: Array<{ line: string; resolve: () => void }> = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    const lines = out.split('\n');
    for (const w of watchers.splice(0)) {
      if (lines.includes(w.line)) w.resolve();
      else watchers.push(w);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<number | string>((resolve) => {
    child.on('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  const printed = (line: string): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (out.split('\n').includes(line)) return resolve();
      watchers.push({ line, resolve });
      void exited.then((code) =>
        reject(new Error(`${name} exited (${code}) before printing ${line}: ${err}`)),
      );
    });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  return { child, printed, stdout: () => out, exited, stop };
};

/**
 * A hostile producer: publishes `reports` in turn, for ever, each atomically (a temporary file
 * renamed over `path`) and as fast as it can, without fsync. Prints `ready` once every report has
 * been published at least once.
 */
export const rewriterScript = (path: string, reports: ReadonlyArray<unknown>): string => `
import { renameSync, writeFileSync } from 'node:fs';
const path = ${JSON.stringify(path)};
const texts = ${JSON.stringify(reports.map((r) => `${JSON.stringify(r)}\n`))};
const temporary = path + '.rewriter-' + process.pid + '.tmp';
let n = 0;
const publishNext = () => {
  for (let burst = 0; burst < 20; burst += 1) {
    writeFileSync(temporary, texts[n % texts.length]);
    renameSync(temporary, path);
    n += 1;
  }
  if (n === 20) console.log('ready');
  setImmediate(publishNext);
};
publishNext();
`;

/**
 * A cooperating producer using the library's publishReport: publishes each of `stale` in turn
 * `times` times over, then `matching` once, prints `published` and exits.
 */
export const replacerScript = (
  bundle: string,
  path: string,
  stale: ReadonlyArray<unknown>,
  times: number,
  matching: unknown,
): string => `
import { publishReport } from ${JSON.stringify(bundle)};
const path = ${JSON.stringify(path)};
const stale = ${JSON.stringify(stale)};
for (let i = 0; i < ${times}; i += 1) await publishReport(path, stale[i % stale.length]);
await publishReport(path, ${JSON.stringify(matching)});
console.log('published');
`;
