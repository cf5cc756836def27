#!/usr/bin/env node
// Runs vitest (extra arguments pass through), then prints one closing line CI can read:
// "Tests: N passed, N failed, N skipped" (see scripts/lib/vitest-run.js).
// The browser test files share one Chromium (scripts/lib/shared-chromium.js).
import { startSharedChromium } from './lib/shared-chromium.js';
import { closeRuns, runVitest } from './lib/vitest-run.js';

const stopChromium = await startSharedChromium();
const run = await runVitest(process.argv.slice(2), { report: '.vitest-report.json' });
await stopChromium();
process.exit(closeRuns([run]) ? 0 : 1);
