#!/usr/bin/env node
// Size budget of the browser builds (nanoid-style): bytes are deterministic, so this is a test.
// Fails when dist/hogtail.iife.js or dist/browser/index.js is over 10,240 bytes gzipped (level 9),
// or missing. Also prints peer SDKs' script-tag sizes from node_modules, measured the same way in
// the same run, for BENCHMARKS.md (peers are only reported, never judged).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 10_240;
const ours = ['dist/hogtail.iife.js', 'dist/browser/index.js'];
const peers = [
  ['posthog-js array.js', 'posthog-js', 'dist/array.js'],
  ['posthog-js array.full.js', 'posthog-js', 'dist/array.full.js'],
  ['posthog-js-lite', 'posthog-js-lite', 'dist/index.js'],
  ['Segment analytics-next (standalone)', '@segment/analytics-next', 'dist/umd/standalone.js'],
  ['Mixpanel', 'mixpanel-browser', 'dist/mixpanel.min.js'],
];

const measure = (file) => {
  const raw = readFileSync(file);
  return { min: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
};

let failed = 0;
for (const file of ours) {
  if (!existsSync(file)) {
    console.error(`size: ${file} is missing; run npm run build`);
    failed++;
    continue;
  }
  const { min, gzip } = measure(file);
  const verdict = gzip <= BUDGET ? 'ok' : 'OVER BUDGET';
  console.log(`size: ${file} ${min} B min, ${gzip} B gzip (budget ${BUDGET}, ${BUDGET - gzip} B left) ${verdict}`);
  if (gzip > BUDGET) failed++;
}

const require = createRequire(import.meta.url);
for (const [label, pkg, path] of peers) {
  let root;
  try {
    root = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    console.log(`size: peer ${label}: not installed (node_modules/${pkg}), not measured`);
    continue;
  }
  const file = join(root, path);
  if (!existsSync(file)) {
    console.log(`size: peer ${label}: ${pkg} has no ${path}, not measured`);
    continue;
  }
  const { min, gzip } = measure(file);
  console.log(`size: peer ${label} ${min} B min, ${gzip} B gzip`);
}
process.exit(failed === 0 ? 0 : 1);
