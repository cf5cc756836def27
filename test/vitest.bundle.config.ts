// `npm run test:bundle`: the browser unit tests that drive the client run a second time against the
// built, minified bundle (dist/browser/index.js) instead of the source, as Preact runs its suite
// against its dist. Catches what only the build breaks: property mangling, dead-code elimination,
// a build-time constant, an export left out of the entry.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const bundle = fileURLToPath(new URL('../dist/browser/index.js', import.meta.url));
/** The modules that export the browser client (createHogtail), however a test names them. */
const CLIENT_SOURCE = /^(\.\.\/)+src\/browser(\/(client|index|api\/drop-in)(\.ts)?)?$/;
const browserTests = fileURLToPath(new URL('browser/', import.meta.url));
/**
 * Suites that inject an internal part into the client see the minifier's short property names
 * (rollup.config.mjs mangles internal names), so they run against the source only.
 */
const SOURCE_ONLY = new Set([
  // hands createHogtail its own autocapture starter and reads the options object it is given
  'autocapture-wiring.test.ts',
  // builds a client with a probe entry in the extension loader's list
  'extension-loading.test.ts',
  // reads the full build's option lists (fullBuild, KNOWN), which the bundle does not export
  'option-audit.test.ts',
]);
/** Only suites that drive the client: the others test internal modules the bundle does not export. */
const clientSuites = readdirSync(browserTests)
  .filter((name) => name.endsWith('.test.ts') && !SOURCE_ONLY.has(name))
  .filter((name) =>
    [...readFileSync(browserTests + name, 'utf8').matchAll(/from '([^']+)'/g)].some((match) => CLIENT_SOURCE.test(match[1]!)),
  )
  .map((name) => `test/browser/${name}`);

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: {
    alias: [{ find: CLIENT_SOURCE, replacement: bundle }],
  },
  test: {
    include: clientSuites,
    // As in vitest.config.ts: only a failing test's console output is shown.
    silent: 'passed-only',
    setupFiles: ['./test/support/route-console.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
