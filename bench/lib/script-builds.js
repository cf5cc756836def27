// What the before/after benches of the script tag share (browser-capture-ab.js,
// browser-capture-frames.js): the builds to compare (this checkout's dist/hogtail.iife.js and each
// `--with LABEL=PATH`), a site that serves build n's page at /n/ (the same URL length for every
// build: the URL is in every event's properties, so their events are the same size), the page's
// capture loop, the main thread's CPU clock, and the statistics.
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { arg } from './args.js';

const root = new URL('../../', import.meta.url).pathname;
const KEY = 'phc_benchProjectKey';

/** `[{ label, file }]`: "this" first, then each --with; `reference` is the index of --reference (default "this"). */
export function buildsFromArgs() {
  const builds = [{ label: 'this', file: root + 'dist/hogtail.iife.js' }];
  process.argv.forEach((flag, index) => {
    if (flag !== '--with') return;
    const [label, file] = (process.argv[index + 1] ?? '').split('=');
    if (!label || !file) throw new Error(`--with needs LABEL=PATH of a built script tag; got ${process.argv[index + 1]}`);
    builds.push({ label, file });
  });
  for (const build of builds) if (!existsSync(build.file)) throw new Error(`${build.label}: ${build.file} is missing (npm run build?)`);
  if (builds.length < 2) throw new Error('nothing to compare: add --with LABEL=PATH (another build of dist/hogtail.iife.js)');
  const label = arg('reference', 'this');
  const reference = builds.findIndex((build) => build.label === label);
  if (reference === -1) throw new Error(`--reference ${label} is not one of the builds`);
  return { builds, reference };
}

/**
 * Serves `/n/` (build n's page, initialised with `config`, an object literal's text) and
 * `/n/sdk.js`, and `/` as `frames` when given. Resolves with `{ url, close() }`.
 */
export async function serveBuilds(builds, config, frames) {
  const site = createServer((req, res) => {
    if (req.url === '/' && frames) return res.writeHead(200, { 'Content-Type': 'text/html' }).end(frames);
    const match = /^\/(\d)\/(sdk\.js)?$/.exec(req.url ?? '');
    const build = match && builds[Number(match[1])];
    if (!build) return res.writeHead(404).end();
    if (match[2]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(build.file));
    res
      .writeHead(200, { 'Content-Type': 'text/html' })
      .end(
        `<!doctype html><html><head><script src="/${match[1]}/sdk.js"></script>` +
          `<script>hogtail.init('${KEY}', ${config})</script></head><body>bench</body></html>`,
      );
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${site.address().port}`, close: () => site.close() };
}

/**
 * Runs in the page (`page.evaluate(captureLoop, { events })`): `events` capture() calls with 10
 * properties on the SDK global `name`. `captureMs`: the calls; `taskMs`: the calls and the work the
 * SDK queued as microtasks of the same task (hogtail's localStorage write), which runs before the await ends.
 */
export async function captureLoop({ name = 'hogtail', events }) {
  const sdk = window[name];
  const t0 = performance.now();
  for (let i = 0; i < events; i++) {
    sdk.capture('bench', {
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
  const t1 = performance.now();
  await Promise.resolve();
  return { captureMs: t1 - t0, taskMs: performance.now() - t0 };
}

/**
 * The page's main-thread CPU clock, in seconds: CDP's ThreadTime, with the thread-ticks time
 * domain. Unlike the wall clock it does not count the time the thread waited for a core, so the
 * other processes of a loaded machine inflate it far less.
 */
export async function mainThreadClock(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return {
    cdp,
    now: async () => (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime').value,
  };
}

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

export const fmt = (n, digits = 2) => n.toFixed(digits);

/** Each of `series` (one list of samples per build) divided, sample by sample, by the reference's. */
export const ratiosTo = (series, reference) => series.map((values) => values.map((value, i) => value / series[reference][i]));
