import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const TESTS = ['test/**/*.test.ts', 'property-tests/**/*.test.ts'];

/**
 * Test files that replace a module (`vi.mock`) or a global: they need a module graph of their own,
 * since a module another file already imported in the same worker would not be replaced. Found by
 * reading the files, so a new one is isolated without anyone listing it here.
 */
const needIsolation = ['test', 'property-tests'].flatMap((root) =>
  readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => path.join(root, file))
    .filter((file) => /\bvi\.(mock|doMock|unmock|stubGlobal|stubEnv)\(/.test(readFileSync(file, 'utf8'))),
);

/**
 * `@clearance/fold` is the pure part of src/ (packages/fold builds it): the rest of src/ imports it
 * by the package's name, which tests resolve to the sources themselves, as tsconfig.json's paths
 * do, so every test runs one copy of each module, as it stands in src/.
 */
export const foldSources = (root: string) => {
  const src = path.join(root, 'src');
  return [
    { find: /^@clearance\/fold\/internal\/(.*)\.js$/, replacement: `${src}/$1.ts` },
    { find: /^@clearance\/fold\/(schemas|testing|ed25519)$/, replacement: `${src}/$1.ts` },
    { find: /^@clearance\/fold$/, replacement: `${src}/fold.ts` },
  ];
};

export default defineConfig({
  resolve: { alias: foldSources(import.meta.dirname) },
  test: {
    // forks, not threads (vitest's default, said here because it matters): test/support/cli.ts runs
    // the CLI in-process and may chdir, which a worker thread cannot
    pool: 'forks',
    // vitest keeps each module's transform on disk (node_modules/.experimental-vitest-cache), keyed
    // by the file's content and the config: a second run transforms only what changed. Measured over
    // interleaved full runs, vitest's own process spent 3.7-4.5 s of CPU with it and 5.9-7.5 s without.
    // A fresh clone (CI) fills it on its first run.
    experimental: { fsModuleCache: true },
    // vitest's default on 2 cores is 1 worker; most files wait on git, node and PostgreSQL
    // processes much of the time, so 2 keep both cores busy
    maxWorkers: 2,
    // Integration tests spawn real processes and take real locks; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // every helper's temporary directories are removed after each test and file
    setupFiles: ['test/support/cleanup.ts'],
    // a real, throwaway PostgreSQL server for the PostgreSQL store's tests (or CLEARANCE_TEST_PG):
    // each project asks for it, and they share the one server
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          // the server first: its socket lives in the system's temporary directory, whose path is
          // short (a Unix socket's path is limited to about 100 bytes), not in the run's own TMPDIR
          globalSetup: ['test/support/postgres-server.ts', 'test/support/suite-tmp.ts'],
          include: TESTS,
          exclude: needIsolation,
          // One module graph per worker, not one per test file: importing src (zod, commander, the
          // MCP SDK, pg) again for each of ~80 files was most of the suite's CPU time. A test that
          // changes the process (env, cwd, a spy) puts it back; one that mocks runs isolated below.
          isolate: false,
        },
      },
      ...(needIsolation.length === 0
        ? []
        : [
            {
              extends: true as const,
              test: {
                name: 'isolated',
                globalSetup: ['test/support/postgres-server.ts', 'test/support/suite-tmp.ts'],
                include: needIsolation,
                isolate: true,
              },
            },
          ]),
    ],
  },
});
