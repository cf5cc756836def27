#!/usr/bin/env node
// Size budget of the browser builds (nanoid-style): bytes are deterministic, so this is a test.
// Fails when dist/hogtail.iife.js is over 16,384 bytes gzipped (level 9),
// or missing. Also prints peer SDKs' script-tag sizes from node_modules, measured the same way in
// the same run, for BENCHMARKS.md (peers are only reported, never judged).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET = 16_384; // the script tag with everything, autocapture included
const ours = ['dist/hogtail.iife.js'];
const peers = [
  ['posthog-js array.js', 'posthog-js', 'dist/array.js'],
  ['posthog-js array.full.js', 'posthog-js', 'dist/array.full.js'],
  // Segment's standalone is the loader only; it fetches more chunks at run time.
  ['Segment analytics-next (standalone loader)', '@segment/analytics-next', 'dist/umd/standalone.js'],
  // mixpanel-browser ships no minified script: its core build (no recorder), minified here like ours.
  ['Mixpanel (core, minified here)', 'mixpanel-browser', 'dist/mixpanel-core.cjs.js', true],
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
for (const [label, pkg, path, minifyHere] of peers) {
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
  let code = readFileSync(file);
  if (minifyHere) {
    const { minify } = await import('terser');
    code = Buffer.from((await minify(code.toString('utf8'), { format: { comments: false } })).code ?? '');
  }
  console.log(`size: peer ${label} ${code.length} B min, ${gzipSync(code, { level: 9 }).length} B gzip`);
}
// posthog-js-lite ships no script-tag build: bundle its ESM with @posthog/core and minify it the way
// our own IIFE is, so the comparison is like for like.
try {
  const { rollup } = await import('rollup');
  const { default: terser } = await import('@rollup/plugin-terser');
  const entry = require.resolve('posthog-js-lite/package.json').replace(/package\.json$/, 'dist/index.mjs');
  // Resolved from posthog-js-lite's own folder, so it is the @posthog/core version it depends on.
  const core = createRequire(entry).resolve('@posthog/core').replace(/index\.js$/, 'index.mjs');
  const bundle = await rollup({
    input: entry,
    onwarn: () => undefined,
    plugins: [{ name: 'posthog-core', resolveId: (id) => (id === '@posthog/core' ? core : null) }],
  });
  const { output } = await bundle.generate({ format: 'iife', name: 'PostHog', plugins: [terser({ format: { comments: false } })] });
  const code = Buffer.from(output[0].code);
  console.log(`size: peer posthog-js-lite (bundled with @posthog/core, minified here) ${code.length} B min, ${gzipSync(code, { level: 9 }).length} B gzip`);
} catch (error) {
  console.log(`size: peer posthog-js-lite: not measured (${error instanceof Error ? error.message : String(error)})`);
}
process.exit(failed === 0 ? 0 : 1);
