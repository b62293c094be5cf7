// Bundle the CLI for start-up time: CI scripts call it many times. One bundled module starts far
// faster than resolving zod, io-ts, fp-ts, commander and proper-lockfile module by module, and
// splitting it at the dynamic imports in src/cli/commands/index.ts means a command loads only what
// it uses (`status` never compiles zod). dist/cli.js is the entry `bin` names; dist/chunks/ holds the
// rest. No source map: the package ships neither the sources it would point at nor a multi-megabyte map.
import { chmod, rm } from 'node:fs/promises';
import { build } from 'esbuild';

/** `fp-ts/lib/X` → `fp-ts/es6/X`, and `io-ts` → its `es6` build (which imports `fp-ts/es6`). */
const esModuleBuilds = {
  name: 'es-module-builds',
  setup(build) {
    const resolveDir = process.cwd();
    build.onResolve({ filter: /^fp-ts\/lib\// }, (args) =>
      build.resolve(args.path.replace(/^fp-ts\/lib\//, 'fp-ts/es6/'), { kind: args.kind, resolveDir }),
    );
    build.onResolve({ filter: /^io-ts$/ }, (args) =>
      build.resolve('io-ts/es6/index.js', { kind: args.kind, resolveDir }),
    );
  },
};

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  // whitespace and syntax only: V8 compiles every module's whole source at start-up, and 30% less of
  // it starts `status` about a tenth sooner; identifiers keep their names, so a stack trace still reads
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // ssh2 (the OpenSSH key formats and the ssh-agent protocol, loaded only by the commands that sign)
  // tries optional native addons it can do without: it is loaded from node_modules as it is
  external: ['ssh2'],
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow; its ES module
  // build bundles cleanly (plain `tsc` output and library users keep loading `main` through Node)
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  // fp-ts and io-ts ship ES module builds beside their CommonJS `lib`: bundling those lets esbuild
  // drop what is never used and skips the CommonJS wrappers at start-up (library users keep `lib`)
  plugins: [esModuleBuilds],
  // proper-lockfile and its dependencies are CommonJS and call require() for Node built-ins
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __clearanceCreateRequire } from 'node:module';\nconst require = __clearanceCreateRequire(import.meta.url);",
  },
});
await chmod('dist/cli.js', 0o755);
