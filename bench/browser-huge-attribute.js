#!/usr/bin/env node
// What one autocaptured click costs on an element that carries a 1 MB attribute (issue 27, item 15),
// in headless Chromium: the element has a 1 MB `data-digits` attribute and a 1 MB
// `data-ph-capture-attribute-blob`, both a million digits (the slowest text for the card check).
// Each click is its own task; the figure is performance.now() around dispatching it (autocapture's
// listener runs inside), the median of the clicks, for the script tag given and for posthog-js's
// array.js on the same page. Compare two builds by running it once with each:
//   npm run build && node bench/browser-huge-attribute.js [--script dist/hogtail.iife.js] [--clicks 7]
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';

const root = new URL('../', import.meta.url).pathname;
const CLICKS = Number(arg('clicks', 7));
const scripts = {
  hogtail: arg('script', root + 'dist/hogtail.iife.js'),
  'posthog-js': root + 'node_modules/posthog-js/dist/array.js',
};
const KEY = 'phc_benchProjectKey';
// Requests go to a port nothing listens on: the click's own work is measured, not delivery.
const DEAD_HOST = 'http://127.0.0.1:9';
const init = {
  hogtail: `hogtail.init('${KEY}', { api_host: '${DEAD_HOST}', capture_pageview: false, advanced_disable_decide: true, rageclick: false })`,
  'posthog-js': `posthog.init('${KEY}', { api_host: '${DEAD_HOST}', autocapture: true, rageclick: false, capture_dead_clicks: false,
    capture_pageview: false, capture_pageleave: false, disable_session_recording: true, disable_surveys: true,
    advanced_disable_flags: true, persistence: 'memory', opt_out_useragent_filter: true })`,
};

const page = (
  name,
) => `<!doctype html><html><head><meta charset="utf-8"><script src="/sdk.js"></script><script>${init[name]}</script></head>
<body><div class="wrap"><button id="huge" class="btn">Huge</button></div>
<script>
  const digits = '1'.repeat(1000000);
  const huge = document.getElementById('huge');
  huge.setAttribute('data-digits', digits);
  huge.setAttribute('data-ph-capture-attribute-blob', digits);
</script></body></html>`;

let current = 'hogtail';
const server = createServer((req, res) => {
  if (req.url === '/sdk.js') res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(scripts[current]));
  else res.writeHead(200, { 'Content-Type': 'text/html' }).end(page(current));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await launchChromium();
for (const name of Object.keys(scripts)) {
  current = name;
  const context = await browser.newContext();
  const tab = await context.newPage();
  await tab.goto(url);
  await tab.waitForFunction((global) => window[global]?.__loaded, name === 'hogtail' ? 'hogtail' : 'posthog');
  const times = [];
  for (let i = 0; i < CLICKS; i++) {
    times.push(
      await tab.evaluate(() => {
        const start = performance.now();
        document.getElementById('huge').dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, detail: 1 }));
        return performance.now() - start;
      }),
    );
  }
  console.log(
    `${name} (${scripts[name].replace(root, '')}): ${median(times).toFixed(1)} ms per click (median of ${CLICKS}; all: ${times.map((t) => t.toFixed(1)).join(', ')})`,
  );
  await context.close();
}
await browser.close();
server.close();
