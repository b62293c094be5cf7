import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'property-tests/**/*.test.ts'],
    // a real, throwaway PostgreSQL server for the PostgreSQL store's tests (or CLEARANCE_TEST_PG)
    globalSetup: ['test/support/postgres-server.ts'],
    // forks, not threads (vitest's default, said here because it matters): test/support/cli.ts runs
    // the CLI in-process and may chdir, which a worker thread cannot
    pool: 'forks',
    // One module graph per worker, not one per test file: importing src (zod, commander, the MCP
    // SDK, pg) again for each of ~80 files was most of the suite's CPU time. Safe because no test
    // mocks a module, and what a test changes in the process (env, cwd, spies) it puts back.
    isolate: false,
    // vitest's default on 2 cores is 1 worker; most files wait on git, node and PostgreSQL
    // processes much of the time, so 2 keep both cores busy
    maxWorkers: 2,
    // Integration tests spawn real processes and take real locks; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
