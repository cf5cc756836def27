// One vitest run with a JSON report beside its console reporter, read back as counts, and the
// closing line CI reads: "Tests: N passed, N failed, N skipped". Used by scripts/run-vitest.js (one
// run) and scripts/test.js (the unit and bundle runs side by side, one combined line).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { findChromium } from './find-chromium.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const VITEST = root + 'node_modules/vitest/vitest.mjs';

/**
 * Resolves with `{ code, passed, failed, skipped, output }`. `quiet`: the console output is kept in
 * `output` instead of shown (for a run beside another one).
 */
export function runVitest(args, { report, quiet = false }) {
  rmSync(root + report, { force: true });
  const reporters = quiet ? ['--reporter=dot'] : [];
  const child = spawn(process.execPath, [VITEST, 'run', ...reporters, '--reporter=json', `--outputFile.json=${report}`, ...args], {
    cwd: root,
    stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    child.on('exit', (code) => resolve({ code: code ?? 1, output, ...countsFrom(root + report) }));
  });
}

function countsFrom(file) {
  if (!existsSync(file)) return { passed: 0, failed: 1, skipped: 0, noReport: true };
  const result = JSON.parse(readFileSync(file, 'utf8'));
  return {
    passed: result.numPassedTests ?? 0,
    failed: (result.numFailedTests ?? 0) + (result.numRuntimeErrorTestSuites ?? 0),
    skipped: (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0),
  };
}

/**
 * Prints the notes and the closing line for the runs together and answers whether they passed.
 * Skipped tests are shown apart, never counted as passed; under CI a skipped test is a test that
 * did not run, so it fails the run rather than look green.
 */
export function closeRuns(runs) {
  const total = (key) => runs.reduce((sum, run) => sum + run[key], 0);
  const passed = total('passed');
  const failed = total('failed');
  const skipped = total('skipped');
  if (runs.some((run) => run.noReport)) console.log('vitest wrote no report: it failed before running the tests (see above).');
  const chromium = findChromium();
  if (skipped > 0 && chromium.problem !== undefined) console.log(`The browser tests were skipped: ${chromium.problem}.`);
  const underCi = process.env.CI === 'true' && skipped > 0;
  if (underCi) console.log(`${skipped} test(s) were skipped under CI; every suite must run there.`);
  console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return !underCi && failed === 0 && passed > 0 && runs.every((run) => run.code === 0);
}
