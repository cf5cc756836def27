#!/usr/bin/env node
// Two or more builds of the script tag side by side, for a before/after question that a shared,
// busy machine would otherwise drown (issue 28: capture() at most 10 % over the build before the
// event properties). Each run is bench/browser-capture.js's capture loop (10,000 capture() calls
// with 10 properties in one task, on a fresh browser context), but:
// - every round runs every build, in an order that alternates round by round, in one Chromium,
//   on pages whose URLs have the same length;
// - besides the loop's wall time it reads the main thread's CPU time for the task (CDP
//   ThreadTime: the loop and its end-of-task work, the durable write unless --persistence memory);
// - it reports, per build, the lowest, 10th percentile and median, and the median of each round's
//   ratio to the reference build in the same round (drift of the load between rounds cancels out).
// --profile adds CPU profiles of `--profile-pages` more such runs per build, named by the source maps.
// For the steady cost per call, with less noise, see browser-capture-frames.js.
//   npm run build && node bench/browser-capture-ab.js --with old=<another build's hogtail.iife.js>
//     [--reference old] [--rounds 20] [--events 10000] [--persistence memory]
//     [--profile] [--profile-pages 10] [--top 25]
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { createProfileTotals, startProfile } from './lib/cpu-profile.js';
import { buildsFromArgs, captureLoop, fmt, mainThreadClock, percentile, ratiosTo, serveBuilds } from './lib/script-builds.js';
import { createCollector } from '../dist/devserver/index.js';

const EVENTS = Number(arg('events', 10_000));
const ROUNDS = Number(arg('rounds', 20));
const PROFILE_PAGES = Number(arg('profile-pages', 10));
const TOP = Number(arg('top', 25));
const PERSISTENCE = arg('persistence', undefined);

const { builds, reference } = buildsFromArgs();
const collector = await createCollector({});
const persistence = PERSISTENCE ? `, persistence: '${PERSISTENCE}'` : '';
const site = await serveBuilds(builds, `{ api_host: '${collector.url}', capture_pageview: false${persistence} }`);
const browser = await launchChromium();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One fresh context on build `index`'s page: the loop's wall and CPU µs per call, and its CPU profile if asked. */
async function run(index, profile) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${site.url}/${index}/`);
  await page.waitForFunction(() => typeof window.hogtail?.capture === 'function');
  await sleep(500); // init-time work settles
  const clock = await mainThreadClock(context, page);
  const stop = profile ? await startProfile(clock.cdp) : undefined;
  const cpuBefore = await clock.now();
  const ms = (await page.evaluate(captureLoop, { events: EVENTS })).captureMs;
  const cpuSeconds = (await clock.now()) - cpuBefore;
  const cpu = await stop?.();
  await context.close();
  if (errors.length > 0) throw new Error(`${builds[index].label}: page errors: ${errors.join('; ')}`);
  return { wall: (ms * 1000) / EVENTS, cpu: (cpuSeconds * 1e6) / EVENTS, profile: cpu };
}

const wall = builds.map(() => []);
const cpu = builds.map(() => []);
for (let round = 0; round < ROUNDS; round++) {
  const order = builds.map((_, index) => index);
  if (round % 2 === 1) order.reverse();
  for (const index of order) {
    const result = await run(index, false);
    wall[index].push(result.wall);
    cpu[index].push(result.cpu);
  }
  const said = builds.map((build, i) => `${build.label} ${fmt(wall[i][round])} µs (CPU ${fmt(cpu[i][round])})`);
  console.log(`round ${round + 1}: ${said.join(', ')}`);
}

const wallRatios = ratiosTo(wall, reference);
const cpuRatios = ratiosTo(cpu, reference);
const persistenceSaid = PERSISTENCE ? `, persistence '${PERSISTENCE}'` : '';
console.log(`
${ROUNDS} rounds of ${EVENTS.toLocaleString('en-US')} capture() calls per build, order alternating${persistenceSaid}; µs per call.
Wall: the capture loop by performance.now(). CPU: the main thread's CPU time for the task (CDP ThreadTime): the loop
and its end-of-task work. Ratio: per round, to the same round's ${builds[reference].label}.

| build | wall: lowest | 10th pct | median | ratio: median | CPU: lowest | 10th pct | median | ratio: median | 10th–90th pct |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
${builds
  .map((build, i) =>
    [
      build.label,
      fmt(Math.min(...wall[i])),
      fmt(percentile(wall[i], 10)),
      fmt(percentile(wall[i], 50)),
      fmt(percentile(wallRatios[i], 50), 3),
      fmt(Math.min(...cpu[i])),
      fmt(percentile(cpu[i], 10)),
      fmt(percentile(cpu[i], 50)),
      fmt(percentile(cpuRatios[i], 50), 3),
      `${fmt(percentile(cpuRatios[i], 10), 3)}–${fmt(percentile(cpuRatios[i], 90), 3)}`,
    ].join(' | '),
  )
  .map((row) => `| ${row} |`)
  .join('\n')}`);

if (process.argv.includes('--profile')) {
  for (const [index, build] of builds.entries()) {
    const totals = createProfileTotals(build.file);
    for (let n = 0; n < PROFILE_PAGES; n++) totals.add((await run(index, true)).profile);
    console.log(`\n${build.label}: CPU profile of ${PROFILE_PAGES} × ${EVENTS.toLocaleString('en-US')} captures, ${totals.top(TOP)}`);
  }
}

await browser.close();
site.close();
await collector.close();
