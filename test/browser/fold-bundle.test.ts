import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import type { RunState } from '../../src/index.js';
import { verdictOf } from '../replay/verdict.js';

/**
 * `@clearance/fold` is what other tools embed, a browser included: it must bundle for the browser
 * with no Node built-in and fold a real log there, synchronously, to the verdict Node folds it to.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.join(root, 'test/fixtures');

const bundleOnce = async () => {
  const result = await build({
    stdin: {
      contents: "export * from './src/fold.ts'; export { verifyEd25519 } from './src/ed25519.ts';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: 'clearanceFold',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no bundle');
  return { code: output.text, inputs: Object.keys(result.metafile.inputs) };
};

/** The bundle, made once for this file's tests: each reads it, none changes it. */
let bundled: ReturnType<typeof bundleOnce> | undefined;
const bundle = () => {
  bundled ??= bundleOnce();
  return bundled;
};

/** A browser's globals, not Node's: no require, process, Buffer or module. */
const browserLike = () => vm.createContext({ TextEncoder, TextDecoder });

describe('@clearance/fold in a browser', () => {
  it('bundles with esbuild --platform=browser and imports no Node built-in', async () => {
    const { code, inputs } = await bundle();
    expect(
      inputs
        .filter((input) => input !== '<stdin>')
        .filter((input) => input.startsWith('node:') || !/\.[cm]?[jt]s$/.test(input)),
    ).toEqual([]);
    expect(inputs.some((input) => input.includes('@noble/hashes'))).toBe(true);
    expect(inputs.some((input) => input.includes('@noble/curves'))).toBe(true);
    expect(code).not.toMatch(/\brequire\(["']node:|from ["']node:/);
  });

  for (const [folder, run] of [
    ['v2', 'v2-staged-converges'],
    ['v2', 'v2-ended-ruled'],
    // signed rulings: checked with @noble/curves, the only Ed25519 a browser has synchronously
    ['v7', 'v7-signed-rulings'],
  ] as const) {
    const FROZEN = path.join(FIXTURES, folder);
    it(`folds the frozen log ${run} to its verdict, with the pure SHA-256 and Ed25519`, async () => {
      const { code } = await bundle();
      const context = browserLike();
      vm.runInContext(code, context);
      expect(vm.runInContext('typeof process + typeof require + typeof Buffer', context)).toBe(
        'undefinedundefinedundefined',
      );
      context.logText = readFileSync(path.join(FROZEN, `${run}.jsonl`), 'utf8');
      const folded = vm.runInContext(
        `(() => {
          const { createDecider, decodeStoredEvent, fold, sha256Hex, verifyEd25519, ZERO_HASH } = clearanceFold;
          const { evolve } = createDecider({ verifyEd25519 });
          const lines = logText.split('\\n').filter((line) => line !== '');
          let prev = ZERO_HASH;
          const events = lines.map((line) => {
            const decoded = decodeStoredEvent(JSON.parse(line));
            if (decoded._tag === 'Left') throw new Error(decoded.left.message);
            if (decoded.right.prev !== prev) throw new Error('chain broken at seq ' + decoded.right.seq);
            prev = sha256Hex(line);
            return decoded.right;
          });
          const { state, trail } = fold(evolve, events);
          return JSON.stringify({ state, refused: trail.filter((t) => t.rejection !== null).length, prev });
        })()`,
        context,
      ) as string;
      const { state, refused, prev } = JSON.parse(folded) as {
        state: RunState;
        refused: number;
        prev: string;
      };
      expect(refused).toBe(0);
      expect(verdictOf(state)).toBe(readFileSync(path.join(FROZEN, `${run}.verdict.json`), 'utf8'));
      // the last line's hash, computed in the sandbox, is the one the head anchor froze
      expect(JSON.parse(readFileSync(path.join(FROZEN, `${run}.head`), 'utf8')).hash).toBe(prev);
    });
  }
});
