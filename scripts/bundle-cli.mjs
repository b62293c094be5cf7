// Bundle the CLI into one file: CI scripts call it many times, and one bundled module starts far
// faster than resolving zod, io-ts, fp-ts, commander and proper-lockfile module by module. No source
// map: the package ships neither the sources it would point at nor a multi-megabyte map. Split at
// dynamic imports: what one command alone loads (the MCP SDK for `mcp`, the Markdown parser for
// `record --findings-md`) is a chunk of its own in dist/chunks/, never read by the others.
import { chmod, rm } from 'node:fs/promises';
import { build } from 'esbuild';

await rm('dist', { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  legalComments: 'none',
  logLevel: 'warning',
  // jsonc-parser's `main` is a UMD build whose require() calls esbuild cannot follow; its ES module
  // build bundles cleanly (plain `tsc` output and library users keep loading `main` through Node)
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  // proper-lockfile and its dependencies are CommonJS and call require() for Node built-ins
  banner: {
    js: "#!/usr/bin/env node\nimport { createRequire as __clearanceCreateRequire } from 'node:module';\nconst require = __clearanceCreateRequire(import.meta.url);",
  },
});
await chmod('dist/cli.js', 0o755);
