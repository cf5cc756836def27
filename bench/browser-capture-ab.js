#!/usr/bin/env node
// Two or more builds of the script tag, side by side, for a before/after question that a shared,
// busy machine would otherwise drown (issue 28: capture() at most 10 % over the build before the
// event properties). The measurement is bench/browser-capture.js's capture loop (10,000 capture()
// calls with 10 properties in one task, a fresh browser context each, persistence as default), but:
// - every round runs every build, in an order that alternates round by round, in one Chromium;
// - each build's page has a URL of the same length, so their events are the same size;
// - what is reported are the low percentiles and the median of each build and, per round, each
//   build's time divided by the reference's in that same round (drift of the machine's load
//   between rounds cancels out of that ratio).
// --profile adds a CPU profile (CDP Profiler, sampling every 25 µs) of `--profile-pages` more such
// loops per build, named by the source maps: the self and total time per source function, so the
// functions that grew between the builds stand out.
//   npm run build && node bench/browser-capture-ab.js --with old=<another build's hogtail.iife.js>
//     [--rounds 20] [--events 10000] [--profile] [--profile-pages 10] [--top 25]
// The first build (this checkout's dist/hogtail.iife.js, "this") is the one the others are
// compared with… unless --reference LABEL names another.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { createSourceLookup } from './lib/source-map.js';
import { createCollector } from '../dist/devserver/index.js';

const EVENTS = Number(arg('events', 10_000));
const ROUNDS = Number(arg('rounds', 20));
const PROFILE_PAGES = Number(arg('profile-pages', 10));
const SAMPLE_US = 25;
const TOP = Number(arg('top', 25));
// 'memory': no durable queue, so the task's CPU time is the capture loop's alone (the default
// writes the task's events to localStorage at its end, in the same task).
const PERSISTENCE = arg('persistence', undefined);
const root = new URL('../', import.meta.url).pathname;
const KEY = 'phc_benchProjectKey';

const builds = [{ label: 'this', file: root + 'dist/hogtail.iife.js' }];
process.argv.forEach((flag, index) => {
  if (flag !== '--with') return;
  const [label, file] = (process.argv[index + 1] ?? '').split('=');
  if (!label || !file || !existsSync(file))
    throw new Error(`--with needs LABEL=PATH of a built script tag; got ${process.argv[index + 1]}`);
  builds.push({ label, file });
});
for (const build of builds) if (!existsSync(build.file)) throw new Error(`${build.label}: ${build.file} is missing (npm run build?)`);
if (builds.length < 2) throw new Error('nothing to compare: add --with LABEL=PATH (another build of dist/hogtail.iife.js)');
const reference = arg('reference', 'this');
if (!builds.some((build) => build.label === reference)) throw new Error(`--reference ${reference} is not one of the builds`);

const collector = await createCollector({});
// Pages /0, /1, …: the same URL length for every build (the URL is in every event's properties).
const site = createServer((req, res) => {
  const match = /^\/(\d)(\/sdk\.js)?$/.exec(req.url ?? '');
  const build = match && builds[Number(match[1])];
  if (!build) return res.writeHead(404).end();
  if (match[2]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(build.file));
  res
    .writeHead(200, { 'Content-Type': 'text/html' })
    .end(
      `<!doctype html><html><head><script src="/${match[1]}/sdk.js"></script>` +
        `<script>hogtail.init('${KEY}', { api_host: '${collector.url}', capture_pageview: false${PERSISTENCE ? `, persistence: '${PERSISTENCE}'` : ''} })</script></head><body>bench</body></html>`,
    );
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}`;
const browser = await launchChromium();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The page's capture loop, as in bench/browser-capture.js; ms for the loop. */
function captureLoop(events) {
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {
    window.hogtail.capture('bench', {
      i,
      plan: 'pro',
      price: 9.99,
      currency: 'EUR',
      items: 3,
      coupon: null,
      member: true,
      page: '/checkout',
      variant: 'b',
      ref: 'newsletter',
    });
  }
  return performance.now() - t0;
}

/** One fresh context on build `index`'s page: the capture loop's µs per call, and the CPU profile if asked. */
async function run(index, profile) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${siteUrl}/${index}`);
  await page.waitForFunction(() => typeof window.hogtail?.capture === 'function');
  await sleep(500); // init-time work settles
  const cdp = await context.newCDPSession(page);
  // Thread ticks: the main thread's CPU time, which another process's load does not inflate.
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const threadTime = async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value;
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: SAMPLE_US });
    await cdp.send('Profiler.start');
  }
  const cpuBefore = await threadTime();
  const ms = await page.evaluate(captureLoop, EVENTS);
  const cpuUs = ((await threadTime()) - cpuBefore) * 1e6;
  const cpu = profile ? (await cdp.send('Profiler.stop')).profile : undefined;
  await context.close();
  if (errors.length > 0) throw new Error(`${builds[index].label}: page errors: ${errors.join('; ')}`);
  return { us: (ms * 1000) / EVENTS, cpuUs: cpuUs / EVENTS, cpu };
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const fmt = (n, digits = 2) => n.toFixed(digits);

const times = builds.map(() => []);
const cpuTimes = builds.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  const order = builds.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const index of order) {
    const { us, cpuUs } = await run(index, false);
    times[index].push(us);
    cpuTimes[index].push(cpuUs);
  }
  console.log(
    `round ${round + 1}: ${builds.map((build, index) => `${build.label} ${fmt(times[index][round])} µs (CPU ${fmt(cpuTimes[index][round])})`).join(', ')}`,
  );
}

const ref = builds.findIndex((build) => build.label === reference);
const lines = [
  `${ROUNDS} rounds of ${EVENTS.toLocaleString('en-US')} capture() calls per build, order alternating${PERSISTENCE ? `, persistence '${PERSISTENCE}'` : ''}; µs per call.`,
  "Wall: the capture loop by performance.now(). CPU: the main thread's CPU time for the task (CDP ThreadTime), the loop",
  "and its end-of-task work (the durable write, unless persistence is memory). Ratio: per round, to the same round's " + reference + '.',
  '',
  '| build | wall: lowest | 10th pct | median | ratio: median | CPU: lowest | 10th pct | median | ratio: median | 10th–90th pct |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
];
const ratios = (series, index) => series[index].map((us, round) => us / series[ref][round]);
builds.forEach((build, index) => {
  const wall = times[index];
  const cpu = cpuTimes[index];
  const cpuRatios = ratios(cpuTimes, index);
  lines.push(
    `| ${build.label} | ${fmt(Math.min(...wall))} | ${fmt(percentile(wall, 10))} | ${fmt(percentile(wall, 50))} | ${fmt(percentile(ratios(times, index), 50), 3)} | ` +
      `${fmt(Math.min(...cpu))} | ${fmt(percentile(cpu, 10))} | ${fmt(percentile(cpu, 50))} | ${fmt(percentile(cpuRatios, 50), 3)} | ` +
      `${fmt(percentile(cpuRatios, 10), 3)}–${fmt(percentile(cpuRatios, 90), 3)} |`,
  );
});
console.log('\n' + lines.join('\n'));

if (process.argv.includes('--profile')) {
  for (const [index, build] of builds.entries()) {
    const totals = new Map();
    let sampled = 0;
    for (let pageRound = 0; pageRound < PROFILE_PAGES; pageRound++) {
      const { cpu } = await run(index, true);
      sampled += addProfile(cpu, build, totals);
    }
    console.log(
      `\n${build.label}: CPU profile of ${PROFILE_PAGES} × ${EVENTS.toLocaleString('en-US')} captures, ${fmt(sampled / 1000, 1)} ms sampled (samples × ${SAMPLE_US} µs)`,
    );
    console.log('  self ms   total ms   function');
    for (const [key, value] of [...totals].sort((a, b) => b[1].self - a[1].self).slice(0, TOP)) {
      console.log(`  ${fmt(value.self / 1000, 1).padStart(7)}   ${fmt(value.total / 1000, 1).padStart(8)}   ${key}`);
    }
  }
}

await browser.close();
site.close();
await collector.close();

/**
 * Adds a profile's time per source function into `totals` (self: the sample's own function; total:
 * each function on the sample's stack, once). Functions outside the script tag keep their CDP name.
 * @returns the µs sampled
 */
function addProfile(cpu, build, totals) {
  build.lookup ??= createSourceLookup(JSON.parse(readFileSync(build.file + '.map', 'utf8')));
  const byId = new Map(cpu.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of cpu.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const nameOf = (node) => {
    const frame = node.callFrame;
    if (!frame.url.endsWith('/sdk.js')) return frame.functionName || `(${frame.url ? 'anonymous' : 'program'})`;
    const at = build.lookup(frame.lineNumber, frame.columnNumber);
    return at ? `${at.source.replace(/^(\.\.\/)+/, '')}:${at.line}${at.name ? ' ' + at.name : ''}` : `sdk.js:${frame.columnNumber}`;
  };
  let sampled = 0;
  cpu.samples.forEach((id) => {
    // Counted, not timed: a sample is taken when the thread runs, and its time delta would add the
    // time the thread waited for a core to the function it was in (the machine's load, not its cost).
    const delta = SAMPLE_US;
    sampled += delta;
    const seen = new Set();
    for (let node = byId.get(id), self = true; node; node = byId.get(parent.get(node.id)), self = false) {
      const key = nameOf(node);
      const entry = totals.get(key) ?? { self: 0, total: 0 };
      if (self) entry.self += delta;
      if (!seen.has(key)) entry.total += delta;
      seen.add(key);
      totals.set(key, entry);
    }
  });
  return sampled;
}
