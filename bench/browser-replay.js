#!/usr/bin/env node
// Session replay's cost (issue #24): hogtail's recorder (dist/hogtail.recorder.js, loaded by the
// script tag) vs posthog-js's (array.full.js, its recorder bundled in) in the same headless
// Chromium, recording the same scripted interaction on the same page (a form typed into, a list
// grown and shrunk, a scrolling panel, client-side route changes), against a real `hogtail dev`
// whose remote config turns recording on for both; a page with no SDK is the baseline.
//   - main-thread ms: CDP TaskDuration while the interaction runs and until the recording is sent
//     (the recorder's DOM observers, serialising, compressing, sending), minus the baseline's;
//   - bytes per recorded minute: what arrived at `/s/` (request bodies as sent, gzip'd), per minute
//     of interaction.
//   npm run build && node bench/browser-replay.js [--seconds 10] [--rounds 5] [--write]
// --write puts the table into BENCHMARKS.md (section browser-replay).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { replayPage } from './lib/replay-page.js';
import { writeBenchmarkSection } from './lib/write-section.js';
import { startDevServer } from '../dist/devserver/index.js';

const SECONDS = Number(arg('seconds', 10));
const ROUNDS = Number(arg('rounds', 5));
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchReplayKey';

const files = {
  '/hogtail.iife.js': root + 'dist/hogtail.iife.js',
  '/hogtail.recorder.js': root + 'dist/hogtail.recorder.js',
  '/posthog.js': root + 'node_modules/posthog-js/dist/array.full.js',
};
for (const file of Object.values(files)) if (!existsSync(file)) throw new Error(`${file} is missing (npm run build?)`);

const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-bench-replay-'));
const dev = await startDevServer({ dataDir });

// The SDKs' host: a pass-through to the dev server that counts the bytes of each request to /s/.
let snapshotBytes = 0;
const proxy = createServer((req, res) => {
  let size = 0;
  req.on('data', (chunk) => (size += chunk.length));
  req.on('end', () => {
    if ((req.url ?? '').startsWith('/s/')) snapshotBytes += size;
  });
  const upstream = request(
    `${dev.url}${req.url}`,
    { method: req.method, headers: { ...req.headers, host: new URL(dev.url).host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const host = `http://127.0.0.1:${proxy.address().port}`;

const heads = {
  none: '',
  hogtail: `<script src="/hogtail.iife.js"></script><script>hogtail.init('${KEY}', { api_host: '${host}', capture_pageview: false, autocapture: false })</script>`,
  'posthog-js': `<script src="/posthog.js"></script><script>posthog.init('${KEY}', { api_host: '${host}', capture_pageview: false, capture_pageleave: false,
    autocapture: false, disable_surveys: true, capture_performance: false, capture_dead_clicks: false, enable_heatmaps: false,
    opt_out_useragent_filter: true, persistence: 'localStorage' })</script>`,
};
const started = { hogtail: 'hogtail.sessionRecordingStarted()', 'posthog-js': 'posthog.sessionRecordingStarted()' };

const site = createServer((req, res) => {
  const [path, query] = (req.url ?? '/').split('?');
  if (files[path]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(files[path]));
  const sdk = new URLSearchParams(query).get('sdk');
  if (path === '/' && sdk in heads) {
    return res.writeHead(200, { 'Content-Type': 'text/html' }).end(replayPage(heads[sdk]));
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

const browser = await launchChromium();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The scripted interaction, `seconds` long, run inside the page (so the test driver's round trips
 * add no main-thread work of their own): typing (a value set and an input event per character),
 * list items added and removed, the panel scrolled, client-side route changes.
 */
function interact(page, seconds) {
  return page.evaluate(async (ms) => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 40));
    const type = async (input, text) => {
      input.value = '';
      for (const char of text) {
        input.value += char;
        input.dispatchEvent(new Event('input', { bubbles: true }));
        await pause();
      }
    };
    const until = performance.now() + ms;
    for (let round = 0; performance.now() < until; round++) {
      await type(document.getElementById('name'), `visitor ${round}`);
      await type(document.getElementById('email'), `v${round}@ex.com`);
      for (let i = 0; i < 3; i++) {
        document.getElementById('add').click();
        await pause();
      }
      document.getElementById('remove').click();
      document.getElementById('panel').scrollTop = (round % 5) * 80;
      history.pushState({}, '', round % 2 ? '/settings' : '/home');
      document.getElementById('route').textContent = (round % 2 ? 'settings' : 'home') + ' page ' + round;
      await pause();
    }
  }, seconds * 1000);
}

async function run(sdk) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${siteUrl}/?sdk=${sdk}`);
  if (started[sdk]) await page.waitForFunction(started[sdk], undefined, { timeout: 30_000 });
  await sleep(1000); // the first full snapshot and its request settle before counting
  const busy = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const before = await busy();
  const bytesBefore = snapshotBytes;
  await interact(page, SECONDS);
  await sleep(3000); // both recorders hand on what they hold every 2 s (posthog-js: after 2 s idle)
  const busyMs = ((await busy()) - before) * 1000;
  const bytes = snapshotBytes - bytesBefore;
  await context.close();
  return { busyMs, bytesPerMinute: (bytes / SECONDS) * 60, errors: errors.length };
}

const results = { none: [], hogtail: [], 'posthog-js': [] };
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
proxy.close();
await dev.close();
rmSync(dataDir, { recursive: true, force: true });

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const busy = (sdk) => median(results[sdk].map((r) => r.busyMs)) - median(results.none.map((r) => r.busyMs));
const bytes = (sdk) => median(results[sdk].map((r) => r.bytesPerMinute));
const row = (sdk) => `| ${sdk} | ${fmt(busy(sdk))} | ${fmt(bytes(sdk))} | ${median(results[sdk].map((r) => r.errors))} |`;
const phVersion = JSON.parse(readFileSync(root + 'node_modules/posthog-js/package.json', 'utf8')).version;
const report = `\`node bench/browser-replay.js --seconds ${SECONDS} --rounds ${ROUNDS}\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${version},
posthog-js ${phVersion} (array.full.js: its recorder bundled in), both recording with their defaults (inputs masked) against \`hogtail dev\`,
whose remote config turns recording on. ${SECONDS} s of scripted interaction (typing into a form, a list grown and shrunk, a panel
scrolled, client-side route changes, driven inside the page), median of ${ROUNDS} rounds, a fresh browser context each.

| SDK | main-thread ms added while recording | bytes to /s/ per recorded minute (gzip'd) | page errors |
| --- | --- | --- | --- |
${row('hogtail')}
${row('posthog-js')}

hogtail / posthog-js: ${fmt((busy('hogtail') / busy('posthog-js')) * 100, 1)} % of the main-thread time (budget: at most 50 %),
${fmt((bytes('hogtail') / bytes('posthog-js')) * 100, 1)} % of the bytes per minute (budget: at most 100 %).

- *main-thread*: CDP \`TaskDuration\` from the first scripted action until 3 s after the last (so both recorders have sent what they
  held), minus the same on the page with no SDK; script loading and the first full snapshot are before it, for both.
- *bytes*: request bodies that arrived at \`/s/\` through a counting pass-through to \`hogtail dev\`, as sent (gzip'd).
- The machine is shared (2 cores, other work running): single rounds of the same SDK vary by up to ±50 %, hence the medians.`;
console.log(report);
if (process.argv.includes('--write')) writeBenchmarkSection('browser-replay', 'Browser: session replay, hogtail vs posthog-js', report);
