// Bundle the CLI for start-up time: CI scripts and agents call it once per step. One bundle starts
// far faster than resolving zod, io-ts, fp-ts and commander module by module, and
// splitting it at the dynamic imports in src/cli/commands/index.ts means a command loads only what
// it uses (`status` never compiles zod). No source map: the package ships neither the sources it
// would point at nor a multi-megabyte map.
//
// The chunks are then turned into CommonJS-shaped classic scripts, which dist/cli.js (the `bin`,
// src/cli/launcher.ts) compiles through `vm.Script` with V8's code cache on disk
// (src/cli/code-cache.ts): ES modules get no code cache before Node 22.1, and Node's ES module
// loader costs more per module than the CommonJS wrapper does. esbuild splits only ES modules, so
// it splits first and converts each chunk after; a dynamic import() becomes a require() of the chunk
// inside a promise, so a chunk still loads only when the import runs.
import { createHash } from 'node:crypto';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build, transform } from 'esbuild';
import { compiledReportModule } from './compile-report-parser.mjs';

/** `fp-ts/lib/X` (and `#either`) → `fp-ts/es6/X`, and `io-ts` → its `es6` build (which imports `fp-ts/es6`). */
const esModuleBuilds = {
  name: 'es-module-builds',
  setup(build) {
    const resolveDir = process.cwd();
    build.onResolve({ filter: /^fp-ts\/lib\// }, (args) =>
      build.resolve(args.path.replace(/^fp-ts\/lib\//, 'fp-ts/es6/'), { kind: args.kind, resolveDir }),
    );
    // the fold's own name for fp-ts's Either (package.json `imports`), which on Node means `lib`
    build.onResolve({ filter: /^#either$/ }, (args) =>
      build.resolve('fp-ts/es6/Either.js', { kind: args.kind, resolveDir }),
    );
    build.onResolve({ filter: /^io-ts$/ }, (args) =>
      build.resolve('io-ts/es6/index.js', { kind: args.kind, resolveDir }),
    );
  },
};

/** src/events/compiled-report.ts as the build makes it: the parser zod's compiler makes of ReportSchema (from lib/). */
const compiledReport = (code) => ({
  name: 'compiled-report',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]events[\\/]compiled-report\.ts$/ }, () => {
      compiledReport.loaded = true;
      return { contents: code, loader: 'ts', resolveDir: path.resolve('src/events') };
    });
  },
});

// whitespace and syntax only: identifiers keep their names, so a stack trace still reads
const minify = { minifyWhitespace: true, minifySyntax: true, legalComments: 'none', target: 'node20' };

/** Stop the build on any warning: a chunk that would not run as a classic script must not ship. */
const refuseWarnings = (what, warnings) => {
  if (warnings.length > 0)
    throw new Error(
      `${what}: ${warnings.map((w) => w.text).join('; ')} (the CLI's chunks must be classic scripts)`,
    );
};

// esbuild's CommonJS output copies a module's exports (each a getter, for ES modules' live bindings)
// onto a second object of getters: the io-ts and zod chunks export hundreds of names, and the copy,
// and a second getter on every call across chunks, cost more than their code. The exports object
// itself, marked as an ES module, is what importers read (through __toESM for an import()).
const COPYING = '__toCommonJS=mod=>__copyProps(__defProp({},"__esModule",{value:!0}),mod)';
const IN_PLACE = '__toCommonJS=mod=>__defProp(mod,"__esModule",{value:!0})';
const exportInPlace = (name, code) => {
  if (!code.includes('__toCommonJS')) return code;
  if (code.split(COPYING).length !== 2)
    throw new Error(`${name}: esbuild's __toCommonJS helper is not the one scripts/bundle-cli.mjs replaces`);
  return code.replace(COPYING, IN_PLACE);
};

const program = await build({
  entryPoints: { main: 'src/main.ts' },
  outdir: 'dist/chunks',
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  write: false,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  ...minify,
  logLevel: 'warning',
  // ssh2 (the OpenSSH key formats and the ssh-agent protocol, loaded only by the commands that sign)
  // tries optional native addons it can do without: it is loaded from node_modules as it is
  external: ['ssh2'],
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow; its ES module
  // build bundles cleanly (plain `tsc` output and library users keep loading `main` through Node)
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  // fp-ts and io-ts ship ES module builds beside their CommonJS `lib`: bundling those lets esbuild
  // drop what is never used and skips the CommonJS wrappers at start-up (library users keep `lib`)
  plugins: [
    esModuleBuilds,
    compiledReport(await compiledReportModule(path.join(process.cwd(), 'packages', 'fold', 'lib'))),
  ],
});
if (!compiledReport.loaded) throw new Error('the CLI bundle has no src/events/compiled-report.ts to compile');

const chunks = [];
for (const file of program.outputFiles) {
  const name = path.basename(file.path);
  const converted = await transform(file.text, {
    format: 'cjs',
    // import() of a chunk becomes Promise.resolve().then(() => require(chunk)): a classic script
    // compiled by vm.Script has no module loader behind it to answer a real import()
    supported: { 'dynamic-import': false },
    sourcefile: name,
    ...minify,
    logLevel: 'silent',
  });
  refuseWarnings(name, converted.warnings);
  chunks.push({ name, code: exportInPlace(name, converted.code) });
}

// The build's identity, in every cache key: V8 checks only a source's length against its cache
const id = createHash('sha256');
for (const { name, code } of chunks.sort((a, b) => a.name.localeCompare(b.name)))
  id.update(`${name}\0${code}\0`);
const main = chunks.find((c) => c.name.startsWith('main-'));
if (main === undefined) throw new Error('the program chunk (main-*.js) is missing');

await rm('dist', { recursive: true, force: true });
await mkdir('dist/chunks', { recursive: true });
for (const { name, code } of chunks) await writeFile(path.join('dist/chunks', name), code);
const launcher = await build({
  entryPoints: ['src/cli/launcher.ts'],
  outfile: 'dist/cli.js',
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  ...minify,
  logLevel: 'warning',
  define: {
    CLEARANCE_BUILD: JSON.stringify({ id: id.digest('hex').slice(0, 16), main: `chunks/${main.name}` }),
  },
  banner: { js: '#!/usr/bin/env node' },
});
await writeFile('dist/cli.js', launcher.outputFiles[0].text);
// the package is "type": "module"; the launcher and its chunks are CommonJS scripts
await writeFile('dist/package.json', '{ "type": "commonjs" }\n');
await chmod('dist/cli.js', 0o755);
