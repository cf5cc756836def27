#!/usr/bin/env node
// Size of the script-tag builds (nanoid-style): bytes are deterministic, so this is a test.
// Each build has two numbers:
//   - its budget (docs/budgets.md): 22,528 bytes gzipped (level 9) for dist/hogtail.iife.js with
//     everything, 14,336 for dist/hogtail.lite.iife.js; printed as OVER BUDGET, with by how much
//     (both are over it since 2026-11-29: see docs/budgets.md, "Over the budget");
//   - a ceiling: the size when the last change landed, plus a little. The check fails past it, so
//     a build never grows without a commit that raises the ceiling and says what the bytes bought.
//     History: 21,301 / 13,050 B (2026-11-25); 21,870 / 13,403 (core's flags client); 19,958 /
//     12,554 (three size rounds, 2026-11-27); on 2026-11-29 one request path (+179 / +203),
//     newcomer messages (+179 / +188), the second hardening pass (+87 / +63) and posthog-js's event
//     properties (+2,236 / +1,351; per part in docs/budgets.md), and the browser's hardening
//     (+575 / +123: privacy checks, DOM reads a form cannot clobber, the console wrapper, in flight
//     at unload, opt-out emptying the queue); then issue #29's browser in layers (+1,181 / +558:
//     features as a list with named hooks, the extension loader, internal names mangled by a
//     convention and a list of 20 instead of 130 names, the queue's close handed in by servers,
//     long functions split; docs/budgets.md, "Issue #29"); then the tag-size round of 2026-11-29
//     (-208 / -124: const declarations as let before the minifier, the flags answer's internal
//     fields under the naming convention, hooks without the feature name nobody read; docs/budgets.md,
//     "Back toward the budgets"); posthog-js's browser API (issue 28: +1,209 / +148 at 7fcf7a8,
//     docs/budgets.md); both together 25,466 / 15,068, still over both budgets;
//     then the surveys extension's loader (+217 / +0 on the merged tags, 25,683 / 15,068: its LOADABLE entry,
//     ExtensionContext's token, get() and provide(), listeners that wait for their product's
//     extension; issue #25); then issue #26's loader entries for web vitals, heatmaps and dead
//     clicks (+268 / 0 on the merged tags, 25,951 / 15,068: each one's on-switch rule, option names, the remote config
//     handed to late files, and a load failure's message saying how to bundle the extension
//     instead; docs/budgets.md, "Issue #26"); then session replay's loader and methods (+334 / +18 on the merged tags, 26,285 / 15,086; +367 / +16 on
//     its branch, issue #24: the recorder's LOADABLE entry, startSessionRecording() loading it,
//     get_session_replay_url(), onSessionId's window id, and the extension context's ids, host and
//     drop counter); +6 B for autocapture's DOM reads looked up on first use, so a server can import
//     hogtail/dead-clicks; +43 / 0 B for ExtensionContext.post() (issue #24's one request path: the
//     recorder posts its snapshots through the tag's executor, with the answer's Retry-After in a
//     plain name, instead of carrying its own copy of the executor).
//     Then +33 / +26 B (26,357 / 15,112 merged) for `$timezone` from Temporal where the
//     browser has it: Intl's date formatter cost Chromium 13-27 ms on each page's first event, most
//     of what put capture() 15 % over its issue-28 budget (BENCHMARKS.md, "capture() and issue 28's budget").
//     Then what issue 28 still left out (+994 / +479 measured on its branch; 27,346 / 15,593 merged;
//     per part in docs/budgets.md:
//     bootstrap.sessionID +150 / +150, Meta's $fbc/$fbp +408 / 0, personal-data masking +249 / +244,
//     an older posthog-js's first touch +61 / 0, the extensions' URLs masked +30 / +3, the rest
//     +96 / +82).
// A missing build fails too. Also prints peer SDKs' script-tag sizes from node_modules, measured the
// same way in the same run, for BENCHMARKS.md (peers are only reported, never judged).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ours = [
  // [file, budget, ceiling] in gzipped bytes
  ['dist/hogtail.iife.js', 22_528, 27_346],
  ['dist/hogtail.lite.iife.js', 14_336, 15_593],
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
  const core = createRequire(entry)
    .resolve('@posthog/core')
    .replace(/index\.js$/, 'index.mjs');
  const bundle = await rollup({
    input: entry,
    onwarn: () => undefined,
    plugins: [{ name: 'posthog-core', resolveId: (id) => (id === '@posthog/core' ? core : null) }],
  });
  const { output } = await bundle.generate({ format: 'iife', name: 'PostHog', plugins: [terser({ format: { comments: false } })] });
  const code = Buffer.from(output[0].code);
  console.log(
    `size: peer posthog-js-lite (bundled with @posthog/core, minified here) ${code.length} B min, ${gzipSync(code, { level: 9 }).length} B gzip`,
  );
} catch (error) {
  console.log(`size: peer posthog-js-lite: not measured (${error instanceof Error ? error.message : String(error)})`);
}
console.log(`size: ${checked - Math.min(failed, checked)} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
