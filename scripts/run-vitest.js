#!/usr/bin/env node
// Runs vitest (extra arguments pass through), then prints one closing line CI can read:
// "Tests: N passed, N failed, N skipped". Skipped tests are shown apart, never counted as passed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';

const report = '.vitest-report.json';
rmSync(report, { force: true });
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
if (!existsSync(report)) {
  console.log('Tests: 0 passed, 1 failed, 0 skipped (vitest wrote no report)');
  process.exit(1);
}
const result = JSON.parse(readFileSync(report, 'utf8'));
const passed = result.numPassedTests ?? 0;
const failed = (result.numFailedTests ?? 0) + (result.numRuntimeErrorTestSuites ?? 0);
const skipped = (result.numPendingTests ?? 0) + (result.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
// Under CI a skipped test is a test that did not run: fail rather than look green.
if (process.env.CI === 'true' && skipped > 0) {
  console.log(`Tests: ${skipped} test(s) were skipped under CI; every suite must run there.`);
  process.exit(1);
}
process.exit(run.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
