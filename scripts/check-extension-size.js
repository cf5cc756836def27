#!/usr/bin/env node
// Size of the extension files (dist/hogtail.<name>.js), the script tag's loader fetches them when a
// project turns the product on. Like check-browser-size.js: bytes are deterministic, so this is a
// test. Each has a budget set in its issue against posthog-js's file for the same product (printed
// beside it, measured the same way in the same run) and a ceiling: its size when the last change
// landed, plus a little, so it never grows without a commit that says what the bytes bought.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const extensions = [
  // [file, budget, ceiling, posthog-js's file for the same product] in gzipped bytes (level 9)
  // Surveys (issue #25): at most a third of posthog-js's surveys.js (48,989 B when the issue was filed).
  ['dist/hogtail.surveys.js', 16_384, 8_250, 'dist/surveys.js'],
];

const gzip = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
let posthogRoot;
try {
  posthogRoot = dirname(createRequire(import.meta.url).resolve('posthog-js/package.json'));
} catch {
  // posthog-js not installed: its sizes are not printed
}

let failed = 0;
for (const [file, budget, ceiling, theirs] of extensions) {
  if (!existsSync(file)) {
    console.error(`size: ${file} is missing; run npm run build`);
    failed++;
    continue;
  }
  const size = gzip(file);
  const peer = posthogRoot && existsSync(join(posthogRoot, theirs)) ? `; posthog-js ${theirs} ${gzip(join(posthogRoot, theirs))} B` : '';
  const versusBudget = size <= budget ? `${budget - size} B under budget ${budget}` : `OVER BUDGET ${budget} by ${size - budget} B`;
  const verdict = size <= ceiling ? 'ok' : `OVER THE CEILING ${ceiling}: it grew`;
  console.log(`size: ${file} ${size} B gzip: ${versusBudget}; ceiling ${ceiling} ${verdict}${peer}`);
  if (size > budget || size > ceiling) failed++;
}
console.log(`size: extensions ${extensions.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
