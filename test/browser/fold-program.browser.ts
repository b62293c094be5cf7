import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { fencedBlocks } from '../docs/markdown.js';
import { candidate } from '../support/builders.js';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.js';

/**
 * docs/embedding.md's program, `statusOfLog`, as an embedder ships it: bundled for a browser with
 * esbuild against the built @clearance/fold (as node_modules holds it), at most 40 KB gzipped, and
 * run in headless Chromium on a log `clearance export` printed of a run the command line made, to
 * the status `clearance status --json` printed of it.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/cli.js');
const exec = promisify(execFile);

/** A run the command line makes: two rounds, a finding fixed, converged; its log and its status. */
const madeByTheCli = async (dir: string) => {
  const store = path.join(dir, 'store');
  const cli = (...args: string[]) =>
    exec(process.execPath, [CLI, '--dir', store, ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1' },
    });
  const sha = (c: string) => c.repeat(40);
  const report = (round: number, inputSha: string, more: object) =>
    JSON.stringify({ runId: 'pr-7', round, inputSha, completed: true, candidates: [], ...more });
  await cli('open', 'pr-7', '--input-sha', sha('a'), '--by', 'ci');
  const major = candidate({
    line: 42,
    summary: 'Connection handle is not closed when the request is aborted',
  });
  await writeFile(path.join(dir, 'r1.json'), report(1, sha('a'), { candidates: [major] }));
  await cli('record', 'pr-7', '--report', 'r1.json', '--by', 'ci');
  await cli('capture', 'pr-7', '--input-sha', sha('b'), '--touched', 'src/service.js', '--by', 'ci');
  const { stdout: findings } = await cli('findings', 'pr-7', '--json');
  const id = (JSON.parse(findings) as { findings: Array<{ id: string }> }).findings[0]?.id ?? '';
  await writeFile(
    path.join(dir, 'r2.json'),
    report(2, sha('b'), { decisions: [{ id, status: 'fixed', evidence: 'closed in a finally block' }] }),
  );
  await cli('record', 'pr-7', '--report', 'r2.json', '--by', 'ci');
  const log = (await cli('export', 'pr-7')).stdout;
  const {
    ok: _,
    seq: __,
    tornTail: ___,
    ...status
  } = JSON.parse((await cli('status', 'pr-7', '--json')).stdout);
  return { log, status };
};

describe('the fold in a browser, as docs/embedding.md ships it', () => {
  it('bundles to at most 40 KB gzipped and folds an exported log to the status the command line prints', async () => {
    if (!existsSync(CHROMIUM))
      throw new Error(`no browser at ${CHROMIUM}: apt-get install chromium (or set CLEARANCE_CHROMIUM)`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'clearance-fold-program-'));
    const embedding = readFileSync(path.join(ROOT, 'docs/embedding.md'), 'utf8');
    const [program] = fencedBlocks(
      embedding.slice(embedding.indexOf("\n## A run's log in a browser\n")),
      'ts',
    );
    if (program === undefined)
      throw new Error("docs/embedding.md shows no program under A run's log in a browser");
    await writeFile(path.join(ROOT, 'test/browser/.status-of-log.ts'), program.code);
    // as the page says: esbuild --bundle --platform=browser --format=esm --minify, @clearance/fold
    // resolved through node_modules to the built package
    const bundled = await build({
      entryPoints: [path.join(ROOT, 'test/browser/.status-of-log.ts')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      minify: true,
      write: false,
      metafile: true,
      logLevel: 'silent',
      // not this repository's tsconfig, whose paths map the fold to src/: the package, as a user has it
      tsconfigRaw: {},
    });
    const code = bundled.outputFiles[0]?.text ?? '';
    const inputs = Object.keys(bundled.metafile.inputs);
    expect(
      inputs.filter((input) => input.includes('packages/fold/lib') || input.includes('@clearance/fold'))
        .length,
    ).toBeGreaterThan(10);
    expect(inputs.filter((input) => /node_modules\/(zod|fast-check)\//.test(input))).toEqual([]);
    expect(inputs.filter((input) => input.startsWith('node:'))).toEqual([]);
    const gzipped = gzipSync(code).length;
    console.log(
      `the status program: ${(code.length / 1024).toFixed(1)} KB minified, ${(gzipped / 1024).toFixed(1)} KB gzip`,
    );
    expect(gzipped).toBeLessThanOrEqual(40 * 1024);

    const { log, status } = await madeByTheCli(dir);
    expect(status.status).toBe('converged');
    const page = `<!doctype html><meta charset="utf-8"><script type="module">
      import { statusOfLog } from './status-of-log.js';
      const log = await (await fetch('./run.jsonl')).text();
      window.folded = JSON.stringify(statusOfLog(log));
    </script>`;
    const files: Record<string, readonly [string, string]> = {
      '/': ['text/html', page],
      '/status-of-log.js': ['text/javascript', code],
      '/run.jsonl': ['text/plain', log],
    };
    const server = createServer((request, response) => {
      const [type, body] = files[request.url ?? ''] ?? ['text/plain', ''];
      response.writeHead(files[request.url ?? ''] === undefined ? 404 : 200, { 'content-type': type });
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const profile = await mkdtemp(path.join(os.tmpdir(), 'clearance-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
    });
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (e) => errors.push(e.message));
      await tab.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      await tab.waitForFunction(() => (globalThis as { folded?: string }).folded !== undefined, null, {
        timeout: 30_000,
      });
      expect(errors).toEqual([]);
      const folded = JSON.parse(
        await tab.evaluate(() => (globalThis as unknown as { folded: string }).folded),
      );
      // what the browser folded is what `clearance status --json` printed (less the log's seq and tail)
      expect(folded).toEqual(status);
      // and it does no I/O of its own: Node's built-ins are not there to call
      expect(await tab.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe(
        'undefined',
      );
    } finally {
      await browser.close();
      server.close();
    }
  });
});
