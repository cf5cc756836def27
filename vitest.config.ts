import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // `hogtail/react` imports the client as 'hogtail' (the app's own instance); in tests that is the source.
  resolve: { alias: [{ find: /^hogtail(\/browser)?$/, replacement: fileURLToPath(new URL('./src/browser/index.ts', import.meta.url)) }] },
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that expect an error also log it; only a failing test's console output is worth reading
    // (route-console.ts brings happy-dom's console under the same rule).
    silent: 'passed-only',
    setupFiles: ['./test/support/route-console.ts'],
    // Real servers on 127.0.0.1 and real Chromium: give them room, never assert timings.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    // Two test files per core: most of a file's time is spent waiting (on Chromium, on servers and
    // child processes it started), and one per core left half the CPU idle. Capped for the browsers' memory.
    maxWorkers: Math.min(8, 2 * availableParallelism()),
  },
});
