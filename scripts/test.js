#!/usr/bin/env node
// `npm test`: every check, the independent ones side by side so both cores stay busy:
//   1. build ‖ typecheck ‖ lint ‖ format ‖ cycles   (the build's progress shows as it goes)
//      The build is `npm pack` in a clean copy of the tree (scripts/lib/clean-pack.js): its dist/
//      replaces this tree's for every suite, and the package test installs its tarball, so the one
//      build is also the check that a fresh clone packs what users need.
//   2. then, on the build: unit tests ‖ bundle tests ‖ size ‖ exports   (unit tests show as they run)
// Each check is its package.json script (`npm run test:lint`, …), so running one alone is the same
// check. A passing check gets one line; a failing one shows its whole output. The last line is the
// unit and bundle runs' combined "Tests: N passed, N failed, N skipped", which CI reads.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packClean, takeDist } from './lib/clean-pack.js';
import { startSharedChromium } from './lib/shared-chromium.js';
import { closeRuns, runVitest } from './lib/vitest-run.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now();
const seconds = (from) => `${((performance.now() - from) / 1000).toFixed(1)} s`;
const failures = [];
// publint and attw pack the package: the build above is what they must see, not a `prepack` rebuild.
const PACK_WHAT_IS_BUILT = { npm_config_ignore_scripts: 'true' };

/** `npm run -s script`; `live`: its output shows as it comes, else only when it fails. */
function check(name, script, { live = false, env = {} } = {}) {
  const from = performance.now();
  const child = spawn(NPM, ['run', '-s', script], {
    cwd: root,
    stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => (output += `could not start: ${error.message}\n`));
    child.on('close', (code) => {
      report(name, code === 0, from, output);
      resolve(code === 0);
    });
  });
}

/** The build, packed from a clean copy; its tarball is handed to the package test (packed.ts). */
async function buildByPacking(destination) {
  const from = performance.now();
  try {
    // The typecheck step beside the build checks src; the build only emits (scripts/build.js).
    const { tarball, copy } = await packClean(destination, { live: true, env: { HOGTAIL_BUILD_TYPECHECK: 'elsewhere' } });
    takeDist(copy);
    rmSync(copy, { recursive: true, force: true });
    process.env.HOGTAIL_PACKED_TARBALL = tarball; // the vitest runs inherit it
    report('build', true, from);
    return true;
  } catch (error) {
    report('build', false, from, error instanceof Error ? error.message : String(error));
    return false;
  }
}

/** While the unit tests print their dots, other checks' lines wait for them to finish. */
let held;

function report(name, passed, from, output = '') {
  if (!passed) failures.push(name);
  const line = passed
    ? `test: ${name} passed (${seconds(from)})`
    : `test: ${name} FAILED (${seconds(from)})${output.trim() === '' ? '' : `:\n${output.trimEnd()}\n--- end of ${name}`}`;
  if (held === undefined) console.log(line);
  else held.push(line);
}

/** The unit run shows as it goes; the bundle run beside it is shown when it fails. */
async function vitestRuns() {
  const bundleFrom = performance.now();
  held = [];
  const [unit, bundle] = await Promise.all([
    runVitest(['--reporter=dot'], { report: '.vitest-report.json' }).then((run) => {
      for (const line of held ?? []) console.log(line);
      held = undefined;
      return run;
    }),
    runVitest(['-c', 'test/vitest.bundle.config.ts'], { report: '.vitest-bundle-report.json', quiet: true }).then((run) => {
      report(
        `bundle tests (${run.passed} passed, ${run.failed} failed, ${run.skipped} skipped)`,
        run.code === 0 && run.failed === 0,
        bundleFrom,
        run.output,
      );
      return run;
    }),
  ]);
  if (unit.code !== 0 || unit.failed > 0) failures.push('unit tests');
  return [unit, bundle];
}

console.log('test: build, typecheck, lint, format and cycles side by side; then unit tests, bundle tests, size and exports');
const packDestination = mkdtempSync(join(tmpdir(), 'hogtail-pack-'));
const built = buildByPacking(packDestination);
const independent = [
  check('typecheck', 'typecheck'),
  check('lint', 'test:lint'),
  check('format', 'test:format'),
  check('cycles', 'test:cycles'),
];
let runs;
if (await built) {
  // One Chromium for every browser test file of the runs (scripts/lib/shared-chromium.js).
  const stopChromium = await startSharedChromium();
  const [vitest] = await Promise.all([
    vitestRuns(),
    check('size', 'test:size'),
    check('exports', 'test:exports', { env: PACK_WHAT_IS_BUILT }),
  ]);
  await stopChromium();
  runs = vitest;
} else {
  console.log('test: the build failed, so no test ran');
  runs = [{ code: 1, passed: 0, failed: 1, skipped: 0 }];
}
await Promise.all(independent);
rmSync(packDestination, { recursive: true, force: true });

console.log(`test: ${failures.length === 0 ? 'every check passed' : `FAILED: ${failures.join(', ')}`} in ${seconds(started)}`);
const testsPassed = closeRuns(runs);
process.exit(testsPassed && failures.length === 0 ? 0 : 1);
