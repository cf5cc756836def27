#!/usr/bin/env node
// `npm run typecheck`, after the whole-project check: each platform area on its own libraries
// (src/<area>/tsconfig.json), so the compiler holds the platform rules: core with the ES2022
// library alone (no DOM, no Node types), the page without Node, Node without the DOM.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const areas = readdirSync('src', { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(`src/${entry.name}/tsconfig.json`))
  .map((entry) => entry.name);
let failed = 0;
for (const area of areas) {
  const run = spawnSync(process.execPath, [tsc, '-p', `src/${area}/tsconfig.json`], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`typecheck: src/${area} does not compile with its own libraries (src/${area}/tsconfig.json)`);
    failed++;
  }
}
console.log(`typecheck: ${areas.length - failed} of ${areas.length} areas compile on their own libraries (${areas.join(', ')})`);
process.exit(failed === 0 ? 0 : 1);
