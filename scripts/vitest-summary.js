#!/usr/bin/env node
// Prints vitest's JSON report as one closing line CI can read: "Tests: N passed, N failed, N skipped".
// Skipped tests are shown apart, never counted as passed.
import { readFileSync } from 'node:fs';

const file = process.argv[2] ?? '.vitest-report.json';
const report = JSON.parse(readFileSync(file, 'utf8'));
const passed = report.numPassedTests ?? 0;
const failed = (report.numFailedTests ?? 0) + (report.numRuntimeErrorTestSuites ?? 0);
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed === 0 && passed > 0 && report.success !== false ? 0 : 1);
