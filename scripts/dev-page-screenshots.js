#!/usr/bin/env node
// The screenshots of `hogtail dev`'s page in docs/images: at 1280 and 390 px with a morning's worth
// of events from a web app, an iOS app and a Node server, and at 1280 px before anything arrived.
//   npm run build && node scripts/dev-page-screenshots.js
// Uses the built dev server and Chromium as the tests find it (scripts/lib/find-chromium.js).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startDevServer } from '../dist/devserver/index.js';
import { PostHog } from '../dist/node/index.js';
import { findChromium } from './lib/find-chromium.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const out = join(root, 'docs/images');
const FLAGS = [
  { key: 'new-checkout', rollout_percentage: 50 },
  {
    key: 'pricing-experiment',
    rollout_percentage: 100,
    variants: [
      { key: 'control', rollout_percentage: 50 },
      { key: 'annual-discount-banner', rollout_percentage: 50 },
    ],
  },
  { key: 'onboarding-checklist-v2', rollout_percentage: 100 },
];

/** What a web page (anonymous visitors, then a sign-up) and an iOS app send, as their SDKs do. */
function clientEvents() {
  const minutes = (n) => new Date(Date.now() - n * 60_000).toISOString();
  const visitors = ['0193a8c2-7f1e-7c3a-9b2d-4e0a11f3c2d9', '0193a8c2-7f1e-7c3a-9b2d-4e0a11f3a417', '0193a8c2-81c4-7d02-a6f0-1b9e2c77e0b5'];
  const web = (event, id, path, at) => ({
    event,
    distinct_id: id,
    timestamp: at,
    properties: { $lib: 'hogtail-web', $lib_version: '0.1.0', $current_url: `https://shop.example.com${path}` },
  });
  return [
    web('$pageview', visitors[0], '/', minutes(42)),
    web('$pageview', visitors[1], '/pricing', minutes(31)),
    web('$autocapture', visitors[1], '/pricing', minutes(30)),
    web('$pageview', visitors[2], '/blog/launch-week', minutes(12)),
    {
      event: '$screen',
      distinct_id: 'ios-7F3A',
      timestamp: minutes(9),
      properties: { $lib: 'posthog-ios', $lib_version: '3.19.0', $screen_name: 'CheckoutViewController' },
    },
    web('$pageview', visitors[0], '/products/espresso-grinder?ref=newsletter', minutes(3)),
    web('signed up', 'ada@example.com', '/signup', minutes(2)),
    { ...web('$identify', 'ada@example.com', '/signup', minutes(2)), $set: { email: 'ada@example.com', plan: 'pro' } },
    web('$pageview', 'ada@example.com', '/onboarding', minutes(1)),
  ];
}

async function seed(server) {
  const batch = clientEvents();
  const answer = await fetch(`${server.url}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: 'phc_hogtail_dev', batch }) });
  if (!answer.ok) throw new Error(`the dev server refused the sample events: ${await answer.text()}`);
  const node = new PostHog('phc_hogtail_dev', { host: server.url, flushOnExitTimeout: 0 });
  node.capture({ distinctId: 'ada@example.com', event: 'subscription created', properties: { plan: 'pro', seats: 3 } });
  node.capture({ distinctId: 'worker-nightly', event: 'report exported', properties: { rows: 12_480 } });
  await node.getFeatureFlag('new-checkout', 'ada@example.com');
  await node.shutdown(5_000);
  await fetch(`${server.url}/batch/`, { method: 'POST', body: '{"api_key":"phc_hogtail_dev","batch":[{"event":"","distinct_id":"x"}]}' });
}

async function shoot(browser, server, width, height, file) {
  const page = await browser.newPage({ viewport: { width, height } });
  await page.goto(`${server.url}/`);
  await page.locator('#status[data-state="live"]').waitFor();
  await page.waitForFunction(() => document.getElementById('users-count')?.textContent !== '');
  await page.screenshot({ path: join(out, file) });
  await page.close();
  console.log(`dev-page-screenshots: wrote docs/images/${file}`);
}

const search = findChromium();
if (search.path === undefined) throw new Error(`the screenshots need Chromium: ${search.problem}`);
mkdirSync(out, { recursive: true });
const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-screenshots-'));
const flagsFile = join(dataDir, 'flags.json');
writeFileSync(flagsFile, JSON.stringify(FLAGS));
const browser = await chromium.launch({ executablePath: search.path, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  const empty = await startDevServer({ dataDir: join(dataDir, 'empty'), flagsFile });
  await shoot(browser, empty, 1280, 800, 'dev-page-empty-1280.png');
  await empty.close();
  const server = await startDevServer({ dataDir: join(dataDir, 'events'), flagsFile });
  await seed(server);
  await shoot(browser, server, 1280, 800, 'dev-page-1280.png');
  await shoot(browser, server, 390, 844, 'dev-page-390.png');
  await server.close();
} finally {
  await browser.close();
  rmSync(dataDir, { recursive: true, force: true });
}
