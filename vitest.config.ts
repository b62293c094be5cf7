import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'property-tests/**/*.test.ts'],
    // forks, not threads (vitest's default, said here because it matters): test/support/cli.ts runs
    // the CLI in-process and may chdir, which a worker thread cannot
    pool: 'forks',
    // Integration tests spawn real processes and take real locks; give them room on a 2-core box.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
