import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('./', import.meta.url));

/**
 * Test files that run in their own module graph: every file that asks for a page environment
 * (`@vitest-environment happy-dom`: the page client keeps module-level state of the page it
 * started in), everything under the page-side folders, where the next such file will be, and the
 * unit tests of core and the Node client, which read module state (uuid's clock, the file queue's
 * process-wide registry) that another file in the same graph would have moved.
 */
const ISOLATED_FOLDERS = ['test/browser/', 'test/react/', 'test/extensions/', 'test/core/', 'test/node/'];
const isolatedFiles = (readdirSync(root + 'test', { recursive: true, encoding: 'utf8' }) as string[])
  .map((name) => `test/${name.replaceAll('\\', '/')}`)
  .filter((name) => name.endsWith('.test.ts'))
  .filter(
    (name) =>
      ISOLATED_FOLDERS.some((folder) => name.startsWith(folder)) || readFileSync(root + name, 'utf8').includes('@vitest-environment'),
  );

export default defineConfig({
  // `hogtail/react` imports the client as 'hogtail' (the app's own instance); in tests that is the source.
  resolve: { alias: [{ find: /^hogtail(\/browser)?$/, replacement: fileURLToPath(new URL('./src/browser/index.ts', import.meta.url)) }] },
  test: {
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
    projects: [
      { extends: true, test: { name: 'isolated', include: isolatedFiles } },
      {
        // The other files (Chromium driven through playwright, servers, CLI children, scripts) share a
        // worker's module graph: importing playwright-core and the sources again for each of them was
        // about a fifth of their CPU (BENCHMARKS.md, "npm test: wall time"). Each file still starts
        // and closes its own servers, browsers and clients.
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...isolatedFiles], isolate: false },
      },
    ],
  },
});
