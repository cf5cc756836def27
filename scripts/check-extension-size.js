#!/usr/bin/env node
// Size of the extension files the script tag loads on demand (never part of the tag itself). Each
// has a budget set in its issue against posthog-js's file for the same product, measured here in
// the same run (gzip level 9, as the tags are), and a ceiling: its size when the last change
// landed, plus a little, so a file never grows without a commit that raises it and says why.
//   - dist/hogtail.recorder.js (session replay, issue #24): at most half of posthog-js's
//     lazy-recorder.js (72,817 B by zlib level 9 on 2026-11-29, so 36,408 B); 27,831 B when it landed (rrweb's
//     @rrweb/record 2.1.6 is about 23.6 KB of it).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

const gzip = (file) => gzipSync(readFileSync(file), { level: 9 }).length;
const require = createRequire(import.meta.url);
const posthogFile = (path) => join(dirname(require.resolve('posthog-js/package.json')), path);

const ours = [
  // [file, peer file in posthog-js, budget as a share of the peer's, budget when the peer is missing, ceiling]
  ['dist/hogtail.recorder.js', 'dist/lazy-recorder.js', 0.5, 36_408, 27_900],
];

let failed = 0;
for (const [file, peer, share, fallback, ceiling] of ours) {
  if (!existsSync(file)) {
    console.error(`size: ${file} is missing; run npm run build`);
    failed++;
    continue;
  }
  const size = gzip(file);
  let budget = fallback;
  try {
    const peerSize = gzip(posthogFile(peer));
    budget = Math.floor(peerSize * share);
    console.log(`size: peer posthog-js ${peer} ${peerSize} B gzip`);
  } catch {
    console.log(`size: peer posthog-js ${peer}: not installed, the budget is the last measured ${fallback} B`);
  }
  const verdict = size > budget ? `OVER BUDGET ${budget} by ${size - budget} B` : `${budget - size} B under budget ${budget}`;
  console.log(`size: ${file} ${size} B gzip: ${verdict}; ceiling ${ceiling} ${size <= ceiling ? 'ok' : 'OVER THE CEILING: it grew'}`);
  if (size > budget || size > ceiling) failed++;
}
process.exit(failed === 0 ? 0 : 1);
