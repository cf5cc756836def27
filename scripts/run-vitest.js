#!/usr/bin/env node
// Runs vitest (extra arguments pass through), then prints one closing line CI can read:
// "Tests: N passed, N failed, N skipped" (see scripts/lib/vitest-run.js).
import { closeRuns, runVitest } from './lib/vitest-run.js';

const run = await runVitest(process.argv.slice(2), { report: '.vitest-report.json' });
process.exit(closeRuns([run]) ? 0 : 1);
