#!/usr/bin/env node
// The steady cost of one capture() call in two or more builds of the script tag, measured so that a
// loaded machine hurts every build alike: each build runs in its own iframe of one page (one
// renderer, one main thread), and the builds take turns with short chunks of bench/browser-capture.js's
// capture loop (250 calls in a task), a few milliseconds apart. Each chunk's cost is the main
// thread's CPU time for its task (CDP ThreadTime); reported are each build's 10th, 25th percentile and
// median per call, and the median of the ratio of each build's chunk to the reference's chunk
// of the same turn. A page's first calls (code compiled on first use, the page's properties read
// once) are one chunk in many here; browser-capture-ab.js measures whole fresh pages.
// Delivery is held back (flush_at and flush_interval out of reach) so that no request's work
// lands in a chunk, and persistence is 'memory' unless --persistence says otherwise (the durable
// write runs at the end of each chunk's task, so it would count). Every `--chunks` turns the page is
// loaded afresh, so a build holds at most chunks × chunk events, as in one browser-capture.js run.
// An A/A control (`--with same=dist/hogtail.iife.js`) shows the noise left.
//   npm run build && node bench/browser-capture-frames.js --with old=<another build's hogtail.iife.js>
//     [--reference old] [--chunk 250] [--chunks 40] [--blocks 4] [--persistence localStorage]
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { buildsFromArgs, captureLoop, fmt, mainThreadClock, percentile, ratiosTo, serveBuilds } from './lib/script-builds.js';

const CHUNK = Number(arg('chunk', 250));
const CHUNKS = Number(arg('chunks', 40));
const BLOCKS = Number(arg('blocks', 4));
const PERSISTENCE = arg('persistence', 'memory');

const { builds, reference } = buildsFromArgs();
const frames = builds.map((_, i) => `<iframe src="/${i}/"></iframe>`).join('');
// api_host is never reached: nothing is flushed.
const config = `{ api_host: 'http://127.0.0.1:9', capture_pageview: false, persistence: '${PERSISTENCE}', flush_at: 1e9, flush_interval: 1e9, max_queue_size: 1e9 }`;
const site = await serveBuilds(builds, config, `<!doctype html><html><body>${frames}</body></html>`);
const browser = await launchChromium();

const cpu = builds.map(() => []);
for (let block = 0; block < BLOCKS; block++) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(site.url + '/');
  const frameOf = builds.map((_, i) => page.frames().find((frame) => new URL(frame.url()).pathname === `/${i}/`));
  for (const frame of frameOf) await frame.waitForFunction(() => typeof window.hogtail?.capture === 'function');
  await page.waitForTimeout(500); // init-time work settles
  const clock = await mainThreadClock(context, page);
  for (let turn = 0; turn < CHUNKS; turn++) {
    const order = builds.map((_, i) => i);
    if ((turn + block) % 2 === 1) order.reverse();
    for (const i of order) {
      const before = await clock.now();
      await frameOf[i].evaluate(captureLoop, { events: CHUNK });
      cpu[i].push((((await clock.now()) - before) * 1e6) / CHUNK);
    }
  }
  await context.close();
  if (errors.length > 0) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(
    `block ${block + 1}: ${builds.map((build, i) => `${build.label} median ${fmt(percentile(cpu[i].slice(-CHUNKS), 50))} µs`).join(', ')}`,
  );
}
await browser.close();
site.close();

const ratios = ratiosTo(cpu, reference);
console.log(`
${BLOCKS} pages × ${CHUNKS} turns of ${CHUNK} capture() calls per build, in iframes of one page, persistence '${PERSISTENCE}';
main-thread CPU µs per call (CDP ThreadTime per chunk). Ratio: each chunk to the same turn's ${builds[reference].label} chunk.

| build | 10th pct | 25th pct | median | ratio: median | 25th–75th pct |
|---|---:|---:|---:|---:|---:|
${builds
  .map(
    (build, i) =>
      `| ${build.label} | ${fmt(percentile(cpu[i], 10))} | ${fmt(percentile(cpu[i], 25))} | ${fmt(percentile(cpu[i], 50))} | ` +
      `${fmt(percentile(ratios[i], 50), 3)} | ${fmt(percentile(ratios[i], 25), 3)}–${fmt(percentile(ratios[i], 75), 3)} |`,
  )
  .join('\n')}`);
