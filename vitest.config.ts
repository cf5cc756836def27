import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `hogtail/react` imports the client as 'hogtail' (the app's own instance); in tests that is the source.
  resolve: { alias: [{ find: /^hogtail(\/browser)?$/, replacement: fileURLToPath(new URL('./src/browser/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Real servers on 127.0.0.1 and real Chromium: give them room, never assert timings.
    // Tests that expect an error also log it; only a failing test's console output is worth reading.
    silent: 'passed-only',
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
