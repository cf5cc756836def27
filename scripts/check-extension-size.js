#!/usr/bin/env node
// Size of the extension files the script tag loads (dist/hogtail.<name>.js) when a project turns
// the product on. Like check-browser-size.js: bytes are deterministic, so this is a test. Each
// file is measured gzip -9 beside posthog-js's file for the same product, in the same run, and has
// a budget set in its issue against that file (session replay, #24, and web vitals, heatmaps and
// dead clicks, #26: half of posthog-js's; surveys, #25: a third of posthog-js's surveys.js) and a ceiling: its size when
// the last change landed, plus a little, so it never grows without a commit that raises it and
// says why. posthog-js keeps heatmaps in its core, so its heatmaps part is measured by bundling
// its heatmaps module (with the rage-click module it alone uses) minified, without the utilities
// it shares with the rest of its core. A missing build fails.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);
const posthogDist = dirname(require.resolve('posthog-js/dist/array.js'));
const gzip = (code) => gzipSync(code, { level: 9 }).length;

/** posthog-js's heatmaps part: its module and the rage-click module, bundled and minified alone. */
async function posthogHeatmaps() {
  const { build } = await import('esbuild');
  const lib = join(posthogDist, '../lib/src');
  const result = await build({
    entryPoints: [join(lib, 'heatmaps.js')],
    bundle: true,
    minify: true,
    write: false,
    format: 'iife',
    // Its shared utilities and the dead-clicks loader are in posthog-js's core either way.
    plugins: [
      {
        name: 'only-heatmaps',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point' || /rageclick/.test(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return gzip(result.outputFiles[0].contents);
}

const posthogFile = (file) => gzip(readFileSync(join(posthogDist, file)));
const half = (theirs) => Math.floor(theirs / 2);

// [our file, posthog-js's measure, what it is, budget from posthog-js's bytes, ceiling] in gzipped bytes
const extensions = [
  // Session replay (issue #24): half of posthog-js's lazy-recorder.js (72,817 B on 2026-11-29); 27,831 B
  // when it landed, of which rrweb's @rrweb/record 2.1.6 is about 23.6 KB. Network requests in the
  // recording (network/: the rrweb/network@1 plugin, fetch and XHR wrappers, posthog-js's redaction
  // lists, the page URL through the app's mask function) took it from 27,842 B to 32,166 B on
  // 2026-11-29: the ceiling rose by those 4,324 B.
  // Canvas recording cost nothing (rrweb's canvas manager was in the file already).
  // What a session hands from page to page (the held-back recording, triggers and overrides) and the
  // 413 split added 228 B (measured alone: 27,842 -> 28,070 B); both together: 32,436 B.
  ['dist/hogtail.recorder.js', () => posthogFile('lazy-recorder.js'), 'lazy-recorder.js', half, 32_436],
  // Surveys (issue #25): at most a third of posthog-js's surveys.js (48,989 B when the issue was filed).
  ['dist/hogtail.surveys.js', () => posthogFile('surveys.js'), 'surveys.js', () => 16_384, 8_250],
  ['dist/hogtail.web-vitals.js', () => posthogFile('web-vitals-with-attribution.js'), 'web-vitals-with-attribution.js', half, 3_000],
  ['dist/hogtail.heatmaps.js', posthogHeatmaps, 'its core’s heatmaps module', half, 1_480],
  ['dist/hogtail.dead-clicks.js', () => posthogFile('dead-clicks-autocapture.js'), 'dead-clicks-autocapture.js', half, 3_950],
];

let failed = 0;
for (const [file, peer, peerName, budgetFor, ceiling] of extensions) {
  if (!existsSync(file)) {
    console.error(`size: ${file} is missing; run npm run build`);
    failed++;
    continue;
  }
  const ours = gzip(readFileSync(file));
  const theirs = await peer();
  const budget = budgetFor(theirs);
  const versusBudget = ours <= budget ? `${budget - ours} B under budget ${budget}` : `OVER BUDGET ${budget} by ${ours - budget} B`;
  const verdict = ours <= ceiling ? 'ok' : `OVER THE CEILING ${ceiling}: it grew`;
  console.log(`size: ${file} ${ours} B gzip; posthog-js ${peerName} ${theirs} B: ${versusBudget}; ceiling ${ceiling} ${verdict}`);
  if (ours > budget || ours > ceiling) failed++;
}
console.log(`size: extensions ${extensions.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
