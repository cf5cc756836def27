#!/usr/bin/env node
// Size of the script-tag builds (nanoid-style): bytes are deterministic, so this is a test.
// Each build has two numbers:
//   - its budget (docs/budgets.md): 22,528 bytes gzipped (level 9) for dist/hogtail.iife.js with
//     everything, 14,336 for dist/hogtail.lite.iife.js, raised on 2026-11-28 from 16,384 and 11,264
//     for what the tags must hold (the measured size rounds in docs/budgets.md) plus headroom for
//     readable structure and posthog-js's event properties;
//   - a ceiling, the size when the last change landed plus a little: the check fails past it, so a
//     build only grows by a change that raises it and says why. History: 21,301 and 13,050 B
//     (2026-11-25); 21,870 and 13,403 B (the browser on core's flags client); 20,239 and 12,789 B,
//     then 19,958 and 12,554 B (2026-11-27, three rounds spent on size); 21,353 and 13,364 B
//     (issue #29: features as a list with named hooks, the extension loader, internal names
//     mangled by convention instead of a name list, the queue's close handed in by servers).
// A missing build fails too. Also prints peer SDKs' script-tag sizes from node_modules, measured the
// same way in the same run, for BENCHMARKS.md (peers are only reported, never judged).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ours = [
  // [file, budget, ceiling] in gzipped bytes
  ['dist/hogtail.iife.js', 22_528, 21_400],
  ['dist/hogtail.lite.iife.js', 14_336, 13_410],
];
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
let checked = 0;
for (const [file, budget, ceiling] of ours) {
  if (!existsSync(file)) {
    console.error(`size: ${file} is missing; run npm run build`);
    failed++;
    continue;
  }
  const { min, gzip } = measure(file);
  checked++;
  const versusBudget = gzip <= budget ? `${budget - gzip} B under budget ${budget}` : `OVER BUDGET ${budget} by ${gzip - budget} B`;
  const verdict = gzip <= ceiling ? 'ok' : `OVER THE CEILING ${ceiling}: it grew`;
  console.log(`size: ${file} ${min} B min, ${gzip} B gzip: ${versusBudget}; ceiling ${ceiling} ${verdict}`);
  if (gzip > ceiling) failed++;
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
console.log(`size: ${checked - Math.min(failed, checked)} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
