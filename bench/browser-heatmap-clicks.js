#!/usr/bin/env node
// What heatmaps and dead clicks add to a click on the main thread: hogtail's script tag with its
// two extension files vs posthog-js's array.full.js (which carries both) in the same headless
// Chromium, on the same page (bench/lib/pricing-page.js), one click per task as a user's is. Each
// SDK runs twice, with both products on and with both off (autocapture off in both runs), and what
// is reported is the difference: the products' own cost, not the SDK's.
//   - handler µs: performance.now() around dispatching the click and the microtasks it queued; the
//     mean over the clicks, and the median and p90 of single clicks (the page is cross-origin
//     isolated, so it ticks in 5 µs: a single click's figure moves in steps of 5, the mean does not);
//   - busy µs: CDP TaskDuration from the first click until 4 s after the last (dead clicks are
//     judged a second or three after their click; heatmaps are sent every 5 s), per click.
// Before counting, every run captures one event and clicks each target a few times, then waits
// for the dead-click checks: what a page pays once (an SDK's first event, V8 compiling the
// handlers) is not a per-click cost. Profiled, it was most of a 300-click window.
//   npm run build && node bench/browser-heatmap-clicks.js [--clicks 300] [--rounds 3] [--write]
// --write puts the table into BENCHMARKS.md (section browser-heatmap-clicks).
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { createCollector } from '../dist/devserver/index.js';
import { PAGE_BODY } from './lib/pricing-page.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const CLICKS = Number(arg('clicks', 300));
const ROUNDS = Number(arg('rounds', 3));
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchProjectKey';

const files = {
  'hogtail.iife.js': root + 'dist/hogtail.iife.js',
  'hogtail.heatmaps.js': root + 'dist/hogtail.heatmaps.js',
  'hogtail.dead-clicks.js': root + 'dist/hogtail.dead-clicks.js',
  'posthog.js': root + 'node_modules/posthog-js/dist/array.full.js',
};
for (const file of Object.values(files)) if (!existsSync(file)) throw new Error(`${file} is missing (npm run build?)`);

const collector = await createCollector({});
const common = `api_host: '${collector.url}', capture_pageview: false, capture_pageleave: false, autocapture: false, advanced_disable_flags: true`;
const init = {
  'hogtail, on': `hogtail.init('${KEY}', { ${common}, rageclick: false, enable_heatmaps: true, capture_dead_clicks: true })`,
  'hogtail, off': `hogtail.init('${KEY}', { ${common}, rageclick: false, enable_heatmaps: false, capture_dead_clicks: false })`,
  'posthog-js, on': `posthog.init('${KEY}', { ${common}, rageclick: false, enable_heatmaps: true, capture_dead_clicks: true,
    disable_session_recording: true, disable_surveys: true, capture_performance: false, opt_out_useragent_filter: true,
    rate_limiting: { events_per_second: 1000000, events_burst_limit: 1000000 } })`,
  'posthog-js, off': `posthog.init('${KEY}', { ${common}, rageclick: false, enable_heatmaps: false, capture_dead_clicks: false,
    disable_session_recording: true, disable_surveys: true, capture_performance: false, opt_out_useragent_filter: true,
    rate_limiting: { events_per_second: 1000000, events_burst_limit: 1000000 } })`,
};
const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

const site = createServer((req, res) => {
  const [path, query] = (req.url ?? '/').split('?');
  const file = files[path.slice(1)];
  if (file)
    return res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cross-Origin-Resource-Policy': 'same-origin' }).end(readFileSync(file));
  if (path === '/') {
    const run = new URLSearchParams(query).get('run');
    const script =
      run === 'none'
        ? ''
        : `<script src="/${run.startsWith('hogtail') ? 'hogtail.iife.js' : 'posthog.js'}"></script><script>${init[run]}</script>`;
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

async function run(name) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${siteUrl}/?run=${encodeURIComponent(name)}`);
  await sleep(1500); // init, the extension files and their setup settle
  const clicking = async (clicks) => {
    // Clicks spread over the card's elements (buttons, paragraphs, the title), as a visitor's are.
    const targets = [...document.querySelectorAll('#buy, .btn-secondary, .feature, .card-title')];
    const nextTask = () =>
      new Promise((resolve) => {
        const channel = new MessageChannel();
        channel.port1.onmessage = resolve;
        channel.port2.postMessage(0);
      });
    const each = [];
    for (let i = 0; i < clicks; i++) {
      await nextTask();
      const target = targets[i % targets.length];
      const box = target.getBoundingClientRect();
      const t0 = performance.now();
      target.dispatchEvent(
        new MouseEvent('click', { bubbles: true, cancelable: true, clientX: box.left + 3, clientY: box.top + 3, detail: 1 }),
      );
      await Promise.resolve();
      each.push((performance.now() - t0) * 1000);
    }
    return { clickUs: each, isolated: crossOriginIsolated };
  };
  await page.evaluate((sdk) => window[sdk]?.capture('bench warm-up'), name.startsWith('hogtail') ? 'hogtail' : 'posthog');
  await page.evaluate(clicking, 35);
  await sleep(4000);
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const busyBefore = await busy();
  const { clickUs, isolated: crossOriginIsolated } = await page.evaluate(clicking, CLICKS);
  if (!crossOriginIsolated) throw new Error('the page is not cross-origin isolated: performance.now() would tick in 100 µs');
  await sleep(4000);
  const busyMs = ((await busy()) - busyBefore) * 1000;
  const sorted = clickUs.sort((a, b) => a - b);
  await context.close();
  const meanUs = clickUs.reduce((sum, each) => sum + each, 0) / CLICKS;
  return { meanUs, medianUs: sorted[Math.floor(CLICKS / 2)], p90Us: sorted[Math.floor(CLICKS * 0.9)], busyMs, errors: errors.length };
}

const names = ['none', 'hogtail, off', 'hogtail, on', 'posthog-js, off', 'posthog-js, on'];
const results = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const name of names) {
    const result = await run(name);
    results[name].push(result);
    console.log(`round ${round + 1} ${name}: ${JSON.stringify(result)}`);
  }
}
const version = browser.version();
await browser.close();
site.close();
await collector.close();

// On minus off within each round (the two ran one after the other), then the median over rounds:
// a load spike from elsewhere on the machine moves one round, not the figure.
const added = (sdk, key) => median(results[`${sdk}, on`].map((on, round) => on[key] - results[`${sdk}, off`][round][key]));
const perClick = (sdk) => (added(sdk, 'busyMs') * 1000) / CLICKS;
const fmt = (n, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const row = (sdk) =>
  `| ${sdk} | ${fmt(added(sdk, 'meanUs'))} | ${fmt(added(sdk, 'medianUs'))} | ${fmt(added(sdk, 'p90Us'))} | ${fmt(perClick(sdk))} | ${results[`${sdk}, on`].reduce((n, r) => n + r.errors, 0)} |`;
const phVersion = JSON.parse(readFileSync(root + 'node_modules/posthog-js/package.json', 'utf8')).version;
const report = `\`node bench/browser-heatmap-clicks.js --clicks ${CLICKS} --rounds ${ROUNDS}\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${version},
posthog-js ${phVersion} (array.full.js, which carries heatmaps and dead clicks). ${fmt(CLICKS, 0)} clicks spread over a pricing card's
buttons, paragraphs and title (bench/lib/pricing-page.js), one per task, after a warm-up (one event, 35 clicks, their dead-click
checks); each SDK with heatmaps and dead clicks on minus the same SDK with both off (autocapture, rage clicks, flags, page views off
in both), the difference taken within each round and its median over ${ROUNDS} rounds, a fresh browser context each.

| SDK | added handler µs / click, mean | median | p90 | added main-thread busy µs / click (clicks, dead-click checks, sends) | page errors |
| --- | --- | --- | --- | --- | --- |
${row('hogtail')}
${row('posthog-js')}

hogtail / posthog-js: ${fmt((added('hogtail', 'meanUs') / added('posthog-js', 'meanUs')) * 100)} % of the added mean handler time,
${fmt((added('hogtail', 'medianUs') / added('posthog-js', 'medianUs')) * 100)} % of the added median click (in 5 µs steps),
${fmt((perClick('hogtail') / perClick('posthog-js')) * 100)} % of the added busy time per click (budget, issue #26: at most 50 %).
Single runs are noisy at this scale (a few µs per click); the busy time includes the dead clicks each SDK reports (a click on a
paragraph that changes nothing is dead in both) and the \`$$heatmap\` sends.`;
console.log(report);
if (process.argv.includes('--write'))
  writeBenchmarkSection('browser-heatmap-clicks', 'Browser: heatmaps and dead clicks per click', report);
