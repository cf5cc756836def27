#!/usr/bin/env node
// Autocapture's cost per click: hogtail's script tag vs posthog-js's array.js in the same headless
// Chromium, on the same page (a button nested five levels deep, with classes and attributes, among
// siblings), and a page with no SDK as the baseline. Each click is its own task, as a user's is:
//   - handler µs: performance.now() around dispatching the click plus the microtasks it queued
//     (with hogtail, the localStorage write of the click's event; at every 20th click, if no request is out, the start of one), minus the same on the page with no SDK;
//     the mean over all clicks (V8's warm-up of the first ~100 included) and the median and p90 of the single clicks. The page
//     is cross-origin isolated (COOP/COEP headers) so that performance.now() ticks in 5 µs, not 100 µs;
//   - busy µs: CDP TaskDuration (all main-thread work, including batching, compressing, sending)
//     from the first click until every event arrived at a local collector, minus the baseline's.
// Also the bytes autocapture adds to the script tag and to the npm build.
//   npm run build && node bench/browser-autocapture.js [--clicks 500] [--rounds 3] [--write]
// --write puts the tables into BENCHMARKS.md (section browser-autocapture).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { createCollector } from '../dist/devserver/index.js';
import { PAGE_BODY } from './lib/pricing-page.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const CLICKS = Number(arg('clicks', 500));
const ROUNDS = Number(arg('rounds', 3));
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchProjectKey';

const files = {
  hogtail: root + 'dist/hogtail.iife.js',
  // The same script with persistence: 'memory': what the durable queue's localStorage writes cost.
  'hogtail (memory only)': root + 'dist/hogtail.iife.js',
  'posthog-js': root + 'node_modules/posthog-js/dist/array.js',
};
for (const [name, file] of Object.entries(files)) if (!existsSync(file)) throw new Error(`${name}: ${file} is missing (npm run build?)`);

// Runs are one at a time, so every $autocapture that arrives is the current run's.
let arrived = 0;
const collector = await createCollector({
  onEvents(events) {
    for (const event of events) if (event.event === '$autocapture') arrived++;
  },
});

const WRITE_ONLY = 'no SDK: one durable write per click';
/** hogtail's $autocapture event on this page, as JSON (1,836 characters with a 5-digit port). */
const WRITE_CHARS = 1836;
const init = {
  none: '',
  hogtail: `hogtail.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false, advanced_disable_decide: true, rageclick: false })`,
  'hogtail (memory only)': `hogtail.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false, advanced_disable_decide: true, rageclick: false, persistence: 'memory' })`,
  // posthog-js with autocapture on (no remote config needed when flags are off) and the rest off.
  'posthog-js': `posthog.init('${KEY}', { api_host: '${collector.url}', autocapture: true, rageclick: false, capture_dead_clicks: false,
    enable_heatmaps: false, capture_pageview: false, capture_pageleave: false, disable_session_recording: true, disable_surveys: true,
    advanced_disable_flags: true, capture_performance: false, persistence: 'localStorage', opt_out_useragent_filter: true,
    rate_limiting: { events_per_second: 1000000, events_burst_limit: 1000000 } })`,
  // No SDK: the page itself writes, in each click's task, one localStorage value the size of
  // hogtail's event for this click (WRITE_CHARS), and removes them 20 at a time later, as hogtail's
  // queue does once a batch is delivered. The floor of any SDK that makes each click durable
  // before its task ends (docs/guarantees.md), whatever it does besides.
  [WRITE_ONLY]: `{ let n = 0; const value = 'x'.repeat(${WRITE_CHARS});
    document.addEventListener('click', () => queueMicrotask(() => {
      localStorage.setItem('probe|' + n, value + n);
      if (++n % 20 === 0) setTimeout((last) => { for (let i = last - 20; i < last; i++) localStorage.removeItem('probe|' + i); }, 0, n);
    }), { capture: true, passive: true }); }`,
};
/** Runs with no SDK on the page: nothing to wait for at the collector. */
const noSdk = (sdk) => sdk === 'none' || sdk === WRITE_ONLY;

const site = createServer((req, res) => {
  const [path, query] = (req.url ?? '/').split('?');
  const sdk = new URLSearchParams(query).get('sdk');
  if (path === '/sdk.js')
    return res
      .writeHead(200, { 'Content-Type': 'text/javascript', 'Cross-Origin-Resource-Policy': 'same-origin' })
      .end(readFileSync(files[sdk]));
  if (path === '/') {
    const script =
      sdk === 'none'
        ? ''
        : sdk === WRITE_ONLY
          ? `<script>${init[sdk]}</script>`
          : `<script src="/sdk.js?sdk=${encodeURIComponent(sdk)}"></script><script>${init[sdk]}</script>`;
    // Cross-origin isolated: performance.now() then ticks in 5 µs instead of 100, fine enough for single clicks.
    const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
    return res
      .writeHead(200, { 'Content-Type': 'text/html', ...isolated })
      .end(`<!doctype html><html><head>${script}</head><body>${PAGE_BODY}</body></html>`);
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

const browser = await launchChromium();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(sdk) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${siteUrl}/?sdk=${encodeURIComponent(sdk)}`);
  if (!noSdk(sdk))
    await page.waitForFunction((name) => typeof window[name]?.capture === 'function', sdk === 'posthog-js' ? 'posthog' : 'hogtail');
  await sleep(1000); // init-time work settles before counting
  arrived = 0;
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const busyBefore = await busy();
  const started = Date.now();
  const { handlerMs, clickUs, isolated } = await page.evaluate(async (clicks) => {
    const button = document.getElementById('buy');
    const nextTask = () =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(0);
      });
    let total = 0;
    const each = [];
    for (let i = 0; i < clicks; i++) {
      await nextTask();
      const t0 = performance.now();
      button.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, clientX: 100 + (i % 7) * 40, clientY: 200 }));
      await Promise.resolve(); // the microtasks the click queued run before this resumes
      const took = performance.now() - t0;
      total += took;
      each.push(took * 1000);
    }
    return { handlerMs: total, clickUs: each, isolated: crossOriginIsolated };
  }, CLICKS);
  if (!isolated) throw new Error('the page is not cross-origin isolated: performance.now() would tick in 100 µs');
  if (!noSdk(sdk)) while (arrived < CLICKS && Date.now() - started < 120_000) await sleep(100);
  else await sleep(500);
  const busyMs = ((await busy()) - busyBefore) * 1000;
  const sorted = clickUs.sort((a, b) => a - b);
  const result = {
    handlerMs,
    medianUs: sorted[Math.floor(CLICKS / 2)],
    p90Us: sorted[Math.floor(CLICKS * 0.9)],
    busyMs,
    arrived,
    errors: errors.length,
  };
  await context.close();
  return result;
}

const results = { none: [], hogtail: [], 'hogtail (memory only)': [], [WRITE_ONLY]: [], 'posthog-js': [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const sdk of Object.keys(results)) {
    const result = await run(sdk);
    results[sdk].push(result);
    console.log(`round ${round + 1} ${sdk}: ${JSON.stringify(result)}`);
  }
}
const version = browser.version();
await browser.close();
site.close();
await collector.close();

const perClick = (sdk, key) => (median(results[sdk].map((r) => r[key])) - median(results.none.map((r) => r[key]))) * (1000 / CLICKS);
/** The median (or p90) of single clicks, already in µs: the median over rounds, minus the page with no SDK's. */
const single = (sdk, key) => median(results[sdk].map((r) => r[key])) - median(results.none.map((r) => r[key]));
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const row = (sdk) =>
  `| ${sdk} | ${fmt(perClick(sdk, 'handlerMs'), 1)} | ${fmt(single(sdk, 'medianUs'), 1)} | ${fmt(single(sdk, 'p90Us'), 1)} | ${fmt(perClick(sdk, 'busyMs'), 1)} | ${noSdk(sdk) ? '–' : `${fmt(median(results[sdk].map((r) => r.arrived)))} / ${fmt(CLICKS)}`} | ${median(results[sdk].map((r) => r.errors))} |`;
const ratio = (key) => perClick('hogtail', key) / perClick('posthog-js', key);
const singleRatio = (key) => single('hogtail', key) / single('posthog-js', key);

const sizes = await autocaptureBytes();
const phVersion = JSON.parse(readFileSync(root + 'node_modules/posthog-js/package.json', 'utf8')).version;
const report = `## Browser: autocapture cost per click, hogtail vs posthog-js

\`node bench/browser-autocapture.js --clicks ${CLICKS} --rounds ${ROUNDS}\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${version}, posthog-js ${phVersion}
(array.js; autocapture on, rage clicks, heatmaps, dead clicks, replay, flags and surveys off). ${fmt(CLICKS)} clicks on a button
nested five levels deep (classes, aria and data attributes, siblings at every level, an SVG icon and a span inside), one click per
task; median of ${ROUNDS} rounds, a fresh browser context each, minus the same page with no SDK.

| SDK | handler µs / click, mean | median | p90 | main-thread busy µs / click, until delivered | $autocapture arrived | page errors |
| --- | --- | --- | --- | --- | --- | --- |
${row('hogtail')}
${row('hogtail (memory only)')}
${row('posthog-js')}
${row(WRITE_ONLY)}

hogtail / posthog-js: ${fmt(ratio('handlerMs') * 100, 1)} % of the mean handler time, ${fmt(singleRatio('medianUs') * 100, 1)} % of the median, ${fmt(singleRatio('p90Us') * 100, 1)} % of the p90, ${fmt(ratio('busyMs') * 100, 1)} % of the busy time (goal: at most 10 %).
The durable write alone (no SDK, last row) is ${fmt((single(WRITE_ONLY, 'medianUs') / single('posthog-js', 'medianUs')) * 100, 1)} % of posthog-js's median click and ${fmt((perClick(WRITE_ONLY, 'busyMs') / perClick('posthog-js', 'busyMs')) * 100, 1)} % of its busy time.

- *handler*: \`performance.now()\` around dispatching the click and the microtasks it queued (with hogtail, the durable queue's
  localStorage write of the click's event, and at every 20th click, if no request is out, the start of one: the batch and its compression).
  *mean*: the total over all ${fmt(CLICKS)} clicks, which includes V8's warm-up (the first ~100 clicks cost 2–10× the later ones,
  for both SDKs); *median* and *p90*: of the single clicks (the page is cross-origin isolated, so \`performance.now()\` ticks
  in 5 µs), the steady state. *busy*: CDP \`TaskDuration\`
  from the first click until every event arrived at a local collector (batching, compression, requests, storage writes
  included). The page is static between clicks; an app that changes the page on click makes posthog-js's \`getComputedStyle\`
  walk (it checks \`cursor: pointer\` on every ancestor) force a style recalculation, which hogtail never asks for.
- *${WRITE_ONLY}*: the page alone writes, in each click's task, one localStorage value of ${fmt(WRITE_CHARS)} characters (the size of
  hogtail's event for this click) and removes them 20 at a time later, as hogtail's queue does after a delivery: what making each
  click durable before its task ends costs by itself, the floor of any SDK that keeps docs/guarantees.md §2 for clicks.
- *hogtail (memory only)*: the same script with \`persistence: 'memory'\`; the difference to *hogtail* is the durable queue's
  localStorage writes (the click's event, written before its task ends so that even a crash keeps it, and the removal once
  delivered). The rest is the element walk and chain (\`src/browser/features/autocapture\`) and the client's \`capture()\` (page
  properties, validation, JSON).

What autocapture adds in bytes (gzip level 9, the project's rollup and terser settings, built now):

| build | with autocapture | without | autocapture costs |
| --- | --- | --- | --- |
| script tag \`dist/hogtail.iife.js\` | ${fmt(sizes.iife[0])} | ${fmt(sizes.iife[1])} | ${fmt(sizes.iife[0] - sizes.iife[1])} |
| npm \`dist/browser/index.js\` with its client and errors chunks (the app's bundle) | ${fmt(sizes.esm[0])} | ${fmt(sizes.esm[1])} | ${fmt(sizes.esm[0] - sizes.esm[1])} |
| npm \`dist/browser/autocapture.js\` (loaded at init unless \`autocapture: false\`) | ${fmt(sizes.chunk)} | – | ${fmt(sizes.chunk)} |
`;
console.log('\n' + report);
if (process.argv.includes('--write'))
  writeBenchmarkSection('browser-autocapture', 'Browser: autocapture cost per click', report.replace(/^## .*\n/, ''));

/** Builds the browser entries with and without autocapture (temporary entry files, removed after). */
async function autocaptureBytes() {
  const iifeFile = root + 'src/browser/zz-bench-iife.ts';
  const esmFile = root + 'src/browser/zz-bench-index.ts';
  const iifeSource = readFileSync(root + 'src/browser/iife.ts', 'utf8');
  const esmSource = readFileSync(root + 'src/browser/index.ts', 'utf8');
  writeFileSync(
    iifeFile,
    iifeSource.replace(/^import \{ startAutocapture \}.*\n/m, '').replace('fullBuild(() => startAutocapture,', 'fullBuild(undefined,'),
  );
  writeFileSync(esmFile, esmSource.replace(/createHogtail\(\(\) => import\([^;]*\);/, 'createHogtail();'));
  try {
    // Imported only now: the TypeScript plugin reads the file list when the config is loaded.
    const { rollup } = await import('rollup');
    const configs = (await import(root + 'rollup.config.mjs')).default;
    const iife = configs.find((config) => config.input === 'src/browser/iife.ts');
    const esm = configs.find((config) => config.input?.['browser/index']);
    const gzipped = async (config, input) => {
      const bundle = await rollup({ ...config, input, onwarn: () => undefined });
      const output = [config.output].flat()[0];
      const { output: chunks } = await bundle.generate({ ...output, sourcemap: false });
      return Object.fromEntries(chunks.filter((c) => c.type === 'chunk').map((c) => [c.fileName, gzipSync(c.code, { level: 9 }).length]));
    };
    // The npm entry is several files (the entry, its client and errors chunks: rollup.config.mjs);
    // the app's bundle holds all of them, and autocapture only when it is loaded.
    const app = (files) => Object.entries(files).reduce((sum, [name, bytes]) => (name === 'browser/autocapture.js' ? sum : sum + bytes), 0);
    const iifeWith = await gzipped(iife, root + 'src/browser/iife.ts');
    const iifeWithout = await gzipped(iife, iifeFile);
    const esmWith = await gzipped(esm, { 'browser/index': root + 'src/browser/index.ts' });
    const esmWithout = await gzipped(esm, { 'browser/index': esmFile });
    return {
      iife: [Object.values(iifeWith)[0], Object.values(iifeWithout)[0]],
      esm: [app(esmWith), app(esmWithout)],
      chunk: esmWith['browser/autocapture.js'],
    };
  } finally {
    rmSync(iifeFile, { force: true });
    rmSync(esmFile, { force: true });
  }
}
