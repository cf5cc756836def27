#!/usr/bin/env node
// hogtail's script tag vs posthog-js's array.js in the same headless Chromium, same page setup:
// main-thread time of 10,000 capture() calls with 10 properties each, then the requests and bytes
// each SDK sends until all 10,000 arrived at a local collector, the main thread's total busy time
// until then (CDP TaskDuration: includes batching, compression and sending), and the characters
// each wrote to localStorage. Also the script sizes, min and gzip, measured now.
//   npm run build && node bench/browser-capture.js [--events 10000] [--rounds 3] [--write]
//     [--with LABEL=PATH …]
// --write puts the tables into BENCHMARKS.md (section browser-capture). --with adds another build of
// the script tag (another commit's dist/hogtail.iife.js) to every round, so a before/after
// comparison runs interleaved on the same machine at the same time (BENCHMARKS.md, issue 29).
import { existsSync, readFileSync } from 'node:fs';
import { writeBenchmarkSection } from './lib/write-section.js';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { captureLoop } from './lib/script-builds.js';
import { createCollector } from '../dist/devserver/index.js';

const EVENTS = Number(arg('events', 10_000));
const ROUNDS = Number(arg('rounds', 3));
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchProjectKey';

const scripts = {
  hogtail: root + 'dist/hogtail.iife.js',
  // The same script with persistence: 'memory': what the durable queue costs.
  'hogtail (memory only)': root + 'dist/hogtail.iife.js',
  'posthog-js': root + 'node_modules/posthog-js/dist/array.js',
};
for (const [name, file] of Object.entries(scripts)) {
  if (!existsSync(file)) throw new Error(`${name}: ${file} is missing (npm run build?)`);
}

// What arrives, and what it cost on the wire. Bytes are request bodies as sent (content-length).
let requests = 0;
let bodyBytes = 0;
const seen = new Set();
const collector = await createCollector({
  onRequest(info) {
    if (info.method !== 'POST') return;
    requests++;
    bodyBytes += Number(info.headers['content-length'] ?? 0);
  },
  onEvents(events) {
    for (const event of events) if (event.event === 'bench') seen.add(event.properties.i);
  },
});

const init = {
  hogtail: `hogtail.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false })`,
  'hogtail (memory only)': `hogtail.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false, persistence: 'memory' })`,
  // posthog-js with everything but event capture off, so both do the same work.
  'posthog-js': `posthog.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false, capture_pageleave: false,
    autocapture: false, disable_session_recording: true, disable_surveys: true, advanced_disable_decide: true,
    advanced_disable_flags: true, capture_performance: false, persistence: 'localStorage',
    opt_out_useragent_filter: true /* headless Chromium looks like a bot to posthog-js */,
    rate_limiting: { events_per_second: 1000000, events_burst_limit: 1000000 } /* else it drops most of a burst */ })`,
};
const globalName = { hogtail: 'hogtail', 'hogtail (memory only)': 'hogtail', 'posthog-js': 'posthog' };
process.argv.forEach((flag, index) => {
  if (flag !== '--with') return;
  const [label, file] = (process.argv[index + 1] ?? '').split('=');
  if (!label || !file || !existsSync(file))
    throw new Error(`--with needs LABEL=PATH of a built script tag; got ${process.argv[index + 1]}`);
  const name = `hogtail ${label}`;
  scripts[name] = file;
  init[name] = init.hogtail;
  globalName[name] = 'hogtail';
});

const site = createServer((req, res) => {
  const [path, query] = (req.url ?? '/').split('?');
  const sdk = new URLSearchParams(query).get('sdk');
  if (path === '/sdk.js') return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(scripts[sdk]));
  if (path === '/') {
    return res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(
        `<!doctype html><html><head><script src="/sdk.js?sdk=${encodeURIComponent(sdk)}"></script><script>${init[sdk]}</script></head><body>bench</body></html>`,
      );
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;

const browser = await launchChromium();

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(sdk) {
  const context = await browser.newContext();
  // Counts every character written to localStorage (keys and values) from the page's first script.
  await context.addInitScript(() => {
    window.__lsChars = 0;
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (key, value) {
      window.__lsChars += String(key).length + String(value).length;
      return setItem.call(this, key, value);
    };
  });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${siteUrl}/?sdk=${encodeURIComponent(sdk)}`);
  await page.waitForFunction((name) => typeof window[name]?.capture === 'function', globalName[sdk]);
  await sleep(1500); // let init-time requests settle before counting
  seen.clear();
  const requestsBefore = requests;
  const bytesBefore = bodyBytes;
  const lsBefore = await page.evaluate(() => window.__lsChars);
  const taskBefore = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const started = Date.now();

  const { captureMs, taskMs } = await page.evaluate(captureLoop, { name: globalName[sdk], events: EVENTS });

  while (seen.size < EVENTS && Date.now() - started < 120_000) await sleep(100);
  const arrived = seen.size;
  await sleep(500); // stragglers (duplicates) that were already on their way
  const taskAfter = (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration').value;
  const result = {
    captureMs,
    taskMs,
    perCallUs: (captureMs * 1000) / EVENTS,
    busyMs: (taskAfter - taskBefore) * 1000,
    deliveredMs: Date.now() - started,
    arrived,
    requests: requests - requestsBefore,
    bytes: bodyBytes - bytesBefore,
    lsChars: (await page.evaluate(() => window.__lsChars)) - lsBefore,
    errors: errors.length,
  };
  await context.close();
  return result;
}

const results = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const sdk of Object.keys(scripts)) {
    const result = await run(sdk);
    (results[sdk] ??= []).push(result);
    console.log(`round ${round + 1} ${sdk}: ${JSON.stringify(result)}`);
  }
}
await browser.close();
site.close();
await collector.close();

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const rows = Object.entries(results).map(([sdk, runs]) => {
  const m = (key) => median(runs.map((r) => r[key]));
  return `| ${sdk} | ${fmt(m('captureMs'), 1)} | ${fmt(m('perCallUs'), 2)} | ${fmt(m('taskMs'), 1)} | ${fmt(m('busyMs'))} | ${fmt(m('arrived'))} / ${fmt(EVENTS)} | ${fmt(m('requests'))} | ${fmt(m('bytes'))} | ${fmt(m('bytes') / EVENTS, 1)} | ${fmt(m('lsChars') * 2)} | ${fmt(m('deliveredMs'))} |`;
});
const sizes = Object.entries(scripts)
  .filter(([sdk]) => !sdk.includes('memory'))
  .map(([sdk, file]) => {
    const raw = readFileSync(file);
    return `| ${sdk} (${file.replace(root, '')}) | ${fmt(raw.length)} | ${fmt(gzipSync(raw, { level: 9 }).length)} |`;
  });
const version = JSON.parse(readFileSync(root + 'node_modules/posthog-js/package.json', 'utf8')).version;
const report = `## Browser: capture() in Chromium, hogtail vs posthog-js

\`node bench/browser-capture.js\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${browser.version()}, posthog-js ${version}
(array.js, flags, autocapture, replay, surveys and pageleave off). ${fmt(EVENTS)} \`capture()\` calls with 10 properties
in one task, then wait until all arrive at a local collector; median of ${ROUNDS} rounds, a fresh browser context each.

| SDK | capture loop ms | µs / call | loop + end-of-task work ms | main-thread busy ms until delivered | arrived | requests | bytes sent | bytes / event | localStorage bytes written (UTF-16) | ms until all arrived |
| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

- *capture loop*: \`performance.now()\` around the loop; *end-of-task work* adds what the SDK queued as microtasks of
  the same task (hogtail writes the task's events to localStorage there). *busy*: CDP \`TaskDuration\` from just before the loop until all
  arrived (includes batching, compression and sending). hogtail writes every event to localStorage before the task ends
  (that is the durable queue; up to its cap of 2,000 events / 1.5 M chars, the rest waits in memory until there is room);
  posthog-js keeps its queue in memory only, so a reload or crash loses what it had not sent.

| script | min bytes | gzip bytes (level 9) |
| --- | --- | --- |
${sizes.join('\n')}
${peerSizes().join('\n')}

Peer rows after posthog-js come from \`node scripts/check-browser-size.js\` in the same run: posthog-js-lite is
bundled with its @posthog/core and minified here (it ships no script-tag build); Segment's standalone is only its
loader (it fetches more at run time); Mixpanel's core build is minified here (it ships none minified).
`;
console.log('\n' + report);

function peerSizes() {
  const out = execFileSync(process.execPath, [root + 'scripts/check-browser-size.js'], { encoding: 'utf8' });
  return [...out.matchAll(/^size: peer (.+?) (\d+) B min, (\d+) B gzip$/gm)]
    .filter((m) => !m[1].startsWith('posthog-js array.js'))
    .map((m) => `| ${m[1]} | ${fmt(Number(m[2]))} | ${fmt(Number(m[3]))} |`);
}
if (process.argv.includes('--write'))
  writeBenchmarkSection('browser-capture', 'Browser: capture() in Chromium and script size', report.replace(/^## .*\n/, ''));
