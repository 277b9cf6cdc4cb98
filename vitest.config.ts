import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**', 'out/**'],
    // Native modules (better-sqlite3, keytar) are safest in child processes rather than worker threads.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The CLI bundle (out/cli) that the CLI tests start, built once per run.
    globalSetup: ['test/support/vitestSetup.ts'],
  },
});
