import { defineConfig } from 'vitest/config';
import { foldSources } from './vitest.config.js';

/** `npm run test:browser`: the HTML report in a real headless Chromium. Not part of `npm test`. */
export default defineConfig({
  resolve: { alias: foldSources(import.meta.dirname) },
  test: {
    include: ['test/browser/**/*.browser.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
  },
});
