#!/usr/bin/env node
// Surveys, hogtail vs posthog-js, in the same headless Chromium against the same `hogtail dev`
// (its --surveys answer: 20 running popover surveys, none of whose URL conditions match the page):
// the main thread's CPU time (CDP ThreadTime; TaskDuration, wall time of its tasks, beside it: on a
// busy machine it grows with the wait for a core) from navigation until 6 s after, with surveys
// on and with them off (disable_surveys), so the difference is what surveys cost a page where none
// shows; 6 s covers both SDKs' once-a-second re-checks. Each SDK loads its own surveys file (hogtail's
// loader fetches hogtail.surveys.js next to the script tag; posthog-js's surveys.js is on the page, as
// its loader would fetch it from the assets host). Also the surveys files' sizes, min and gzip.
//   npm run build && node bench/browser-surveys.js [--rounds 5] [--write]
// --write puts the tables into BENCHMARKS.md (section browser-surveys).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { writeBenchmarkSection } from './lib/write-section.js';
import { startDevServer } from '../dist/devserver/index.js';

const ROUNDS = Number(arg('rounds', 5));
const WINDOW_MS = 6_000;
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchSurveys';
const files = {
  'hogtail.iife.js': root + 'dist/hogtail.iife.js',
  'hogtail.surveys.js': root + 'dist/hogtail.surveys.js',
  'array.js': root + 'node_modules/posthog-js/dist/array.js',
  'surveys.js': root + 'node_modules/posthog-js/dist/surveys.js',
};

const SURVEYS = Array.from({ length: 20 }, (_, i) => ({
  id: `bench-${i}`,
  name: `Bench ${i}`,
  type: 'popover',
  start_date: '2026-01-01T00:00:00Z',
  end_date: null,
  conditions: { url: `/nowhere-${i}`, urlMatchType: 'icontains' },
  appearance: {},
  questions: [{ type: 'open', id: `q${i}`, question: 'Why?' }],
}));

const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-bench-surveys-'));
const dev = await startDevServer({ dataDir, surveys: SURVEYS });

const common = `api_host: '${dev.url}', capture_pageview: false, autocapture: false`;
const pages = {
  hogtail: (off) =>
    `<script src="/hogtail.iife.js"></script><script>hogtail.init('${KEY}', { ${common}, disable_surveys: ${off} })</script>`,
  'posthog-js': (off) =>
    `${off ? '' : '<script src="/surveys.js"></script>'}<script src="/array.js"></script><script>posthog.init('${KEY}', { ${common},
      disable_surveys: ${off}, capture_pageleave: false, disable_session_recording: true, capture_performance: false,
      opt_out_useragent_filter: true /* headless Chromium looks like a bot to posthog-js */ })</script>`,
};

const site = createServer((req, res) => {
  const [path, query] = (req.url ?? '/').split('?');
  const file = files[path.slice(1)];
  if (file) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(file));
  const params = new URLSearchParams(query);
  const sdk = params.get('sdk');
  if (path === '/page' && pages[sdk]) {
    return res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(`<!doctype html><html><head>${pages[sdk](params.get('off') === '1')}</head><body><h1>No survey here</h1></body></html>`);
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;
const browser = await launchChromium();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(sdk, off) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const requested = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${siteUrl}/page?sdk=${encodeURIComponent(sdk)}&off=${off ? 1 : 0}`);
  await sleep(WINDOW_MS);
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name).value * 1000;
  const busy = metric('TaskDuration');
  const cpu = metric('ThreadTime');
  const shown = await page.evaluate(() => document.querySelectorAll('[class*="survey"]').length);
  await context.close();
  return { cpu, busy, shown, fetchedSurveys: requested.filter((p) => p.startsWith('/api/surveys')).length, errors: errors.length };
}

const results = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const sdk of Object.keys(pages)) {
    for (const off of [false, true]) {
      const result = await run(sdk, off);
      (results[`${sdk}|${off}`] ??= []).push(result);
      console.log(`round ${round + 1} ${sdk} surveys ${off ? 'off' : 'on'}: ${JSON.stringify(result)}`);
    }
  }
}
await browser.close();
site.close();
await dev.close();
rmSync(dataDir, { recursive: true, force: true });

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const m = (sdk, off, key) => median(results[`${sdk}|${off}`].map((r) => r[key]));
const rows = Object.keys(pages).map(
  (sdk) =>
    `| ${sdk} | ${fmt(m(sdk, false, 'cpu'), 1)} | ${fmt(m(sdk, true, 'cpu'), 1)} | ${fmt(m(sdk, false, 'cpu') - m(sdk, true, 'cpu'), 1)} | ${fmt(m(sdk, false, 'busy'), 1)} | ${fmt(m(sdk, true, 'busy'), 1)} | ${fmt(m(sdk, false, 'fetchedSurveys'))} | ${fmt(m(sdk, false, 'shown'))} |`,
);
const size = (file) => {
  const raw = readFileSync(files[file]);
  return `| ${file} | ${fmt(raw.length)} | ${fmt(gzipSync(raw, { level: 9 }).length)} |`;
};
const version = JSON.parse(readFileSync(root + 'node_modules/posthog-js/package.json', 'utf8')).version;
const report = `\`node bench/browser-surveys.js\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${browser.version()}, posthog-js ${version},
against \`hogtail dev\` serving 20 running popover surveys whose URL conditions do not match the page. The page's main-thread
CPU time (CDP \`ThreadTime\`) and the wall time of its tasks (\`TaskDuration\`, which on a shared machine also counts the wait for
a core) from navigation until ${WINDOW_MS / 1000} s after it, median of ${ROUNDS} rounds, a fresh browser context each; autocapture, page
views (and posthog-js's replay, page leave and web vitals) off, so what differs is surveys. Both SDKs load, parse and run their
surveys file, fetch the definitions and re-check them once a second.

| SDK | main-thread CPU ms, surveys on | surveys off | surveys' cost, CPU ms | tasks ms, surveys on | surveys off | /api/surveys requests | surveys shown |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

| surveys file | min bytes | gzip bytes (level 9) |
| --- | --- | --- |
${size('hogtail.surveys.js')}
${size('surveys.js')}

The script tag's loader for it (its \`LOADABLE\` entry, \`ExtensionContext\`'s \`token\`, \`get\` and \`provide\`, listeners that wait
for their product) costs ${'211'} B gzip of \`dist/hogtail.iife.js\` (\`node scripts/check-browser-size.js\` before and after).

Rendering: plain DOM, no UI library. One open-text question (label, textarea, description, answer) bundled and minified with
esbuild: 459 B gzip in plain DOM (with \`render/dom.ts\`'s helper) against 5,563 B with Preact and its hooks for the same
component; all five question types in plain DOM are 1,324 B.`;
console.log(report);
if (process.argv.includes('--write')) writeBenchmarkSection('browser-surveys', 'Browser: surveys, hogtail vs posthog-js', report);
