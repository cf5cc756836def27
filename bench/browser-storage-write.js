#!/usr/bin/env node
// What one durable write of a click's event costs the click's task, and whether it survives a crash
// of the page's process: localStorage (what src/browser/delivery/ledger.ts does now) vs IndexedDB, in the same
// headless Chromium, on a page served from 127.0.0.1 and cross-origin isolated (COOP/COEP), so that
// performance.now() ticks in 5 µs.
//
// Cost (default): each iteration is a task of its own; it first does autocapture-like work (walks up
// from a button nested five levels deep, collecting tags, classes and attributes, and builds a
// ~1.3 KB JSON string), then only the write is timed:
//   - localStorage: setItem of a new key;
//   - IndexedDB + commit(): a readwrite transaction on the already open database, put() of the same
//     string, transaction.commit();
//   - IndexedDB (auto-commit): the same without commit().
// Also CDP TaskDuration over the whole run (until every transaction completed), minus the same page
// doing the work but no write: work a method moves to later tasks still counts there.
//
// Crash (--crash): for each method, a page of a fresh context opens the database, writes one record
// and the renderer is crashed with CDP Page.crash (as test/e2e/durable-clicks.test.ts does); a new
// page of the same origin then looks for the record. Three moments of the crash:
//   - in-task: the writing task never ends: after the write it tells Node (a CDP binding) and spins
//     until Page.crash interrupts it (no microtask, no later task of the page ever runs);
//   - next-task: the writing task ends (its microtasks run), the next task tells Node and spins;
//   - after-return: the write is a page.evaluate(); once it returned, Node sends Page.crash (the e2e
//     test's pattern; the page may run a few tasks in between).
//   node bench/browser-storage-write.js [--writes 500] [--rounds 5] [--crash] [--trials 50] [--write]
// --write puts the tables into BENCHMARKS.md (section browser-storage-write).
import { createServer } from 'node:http';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { median } from './lib/processes.js';
import { PAGE_BODY } from './lib/pricing-page.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const WRITES = Number(arg('writes', 500));
const ROUNDS = Number(arg('rounds', 5));
const TRIALS = Number(arg('trials', 50));
const CRASH = process.argv.includes('--crash');

// Runs in the page: the database (opened at load, as an SDK would at init), the click-like work and
// the three writes. Each write returns the transaction's completion (or nothing).
const PAGE_SCRIPT = `
window.dbReady = new Promise((resolve, reject) => {
  const open = indexedDB.open('bench', 1);
  open.onupgradeneeded = () => open.result.createObjectStore('q');
  open.onsuccess = () => resolve(window.db = open.result);
  open.onerror = () => reject(open.error);
});
let seq = 0;
window.clickWork = () => {
  const chain = [];
  for (let el = document.getElementById('buy').firstElementChild; el && el !== document.body; el = el.parentElement) {
    const attrs = {};
    for (const a of el.attributes) attrs['attr__' + a.name] = a.value;
    chain.push({ tag_name: el.tagName.toLowerCase(), classes: [...el.classList], nth_child: [...el.parentElement.children].indexOf(el) + 1, attributes: attrs });
  }
  return JSON.stringify({ uuid: crypto.randomUUID(), event: '$autocapture', timestamp: new Date().toISOString(), seq: ++seq,
    properties: { $event_type: 'click', $current_url: location.href, $host: location.host, $pathname: location.pathname,
      $screen_height: screen.height, $screen_width: screen.width, $lib: 'bench', $elements: chain } });
};
const done = (tx) => new Promise((resolve, reject) => { tx.oncomplete = resolve; tx.onabort = tx.onerror = () => reject(tx.error); });
window.writes = {
  none: () => undefined,
  localStorage: (key, value) => void localStorage.setItem(key, value),
  'IndexedDB + commit()': (key, value) => {
    const tx = db.transaction('q', 'readwrite');
    tx.objectStore('q').put(value, key);
    tx.commit();
    return done(tx);
  },
  'IndexedDB (auto-commit)': (key, value) => {
    const tx = db.transaction('q', 'readwrite');
    tx.objectStore('q').put(value, key);
    return done(tx);
  },
};
window.stored = async (method, key) => method === 'localStorage' ? localStorage.getItem(key) !== null
  : await new Promise((resolve, reject) => { const get = db.transaction('q').objectStore('q').get(key); get.onsuccess = () => resolve(get.result !== undefined); get.onerror = () => reject(get.error); });
`;

const site = createServer((req, res) => {
  if (req.url !== '/') return res.writeHead(404).end();
  const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
  res
    .writeHead(200, { 'Content-Type': 'text/html', ...isolated })
    .end(`<!doctype html><html><head><script>${PAGE_SCRIPT}</script></head><body>${PAGE_BODY}</body></html>`);
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const siteUrl = `http://127.0.0.1:${site.address().port}/`;
if (!/^http:\/\/127\.0\.0\.1:/.test(siteUrl)) throw new Error('the bench serves from 127.0.0.1 only');

const browser = await launchChromium();
const methods = ['none', 'localStorage', 'IndexedDB + commit()', 'IndexedDB (auto-commit)'];
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function openPage(context) {
  const page = await context.newPage();
  await page.goto(siteUrl);
  await page.evaluate(() => window.dbReady.then(() => undefined));
  return page;
}

/** One round of one method: WRITES tasks, each doing the click work then the timed write. */
async function cost(method) {
  const context = await browser.newContext();
  const page = await openPage(context);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await sleep(300);
  // TaskDuration: main-thread task time (wall clock); ThreadTime: the main thread's CPU time; ProcessTime: the renderer's (all threads).
  const metrics = async () => Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const before = await metrics();
  const { writeUs, workUs, bytes, isolated } = await page.evaluate(
    async ({ method, writes }) => {
      const write = window.writes[method];
      const nextTask = () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = resolve;
          channel.port2.postMessage(0);
        });
      const writeUs = [];
      const workUs = [];
      const pending = [];
      let bytes = 0;
      for (let i = 0; i < writes; i++) {
        await nextTask();
        const t0 = performance.now();
        const value = window.clickWork();
        const t1 = performance.now();
        pending.push(write('e' + i, value));
        const t2 = performance.now();
        workUs.push((t1 - t0) * 1000);
        writeUs.push((t2 - t1) * 1000);
        bytes += value.length;
      }
      await Promise.all(pending);
      return { writeUs, workUs, bytes: bytes / writes, isolated: crossOriginIsolated };
    },
    { method, writes: WRITES },
  );
  if (!isolated) throw new Error('the page is not cross-origin isolated: performance.now() would tick in 100 µs');
  await sleep(300); // whatever the writes left for later tasks
  const after = await metrics();
  const [busyUs, threadUs, processUs] = ['TaskDuration', 'ThreadTime', 'ProcessTime'].map((name) => (after[name] - before[name]) * 1e6);
  await context.close();
  const sorted = [...writeUs].sort((a, b) => a - b);
  return {
    meanUs: writeUs.reduce((a, b) => a + b, 0) / WRITES,
    medianUs: sorted[Math.floor(WRITES / 2)],
    p90Us: sorted[Math.floor(WRITES * 0.9)],
    workUs: median(workUs),
    busyUs,
    threadUs,
    processUs,
    bytes,
  };
}

/** One crash trial: write record `key` with `method`, crash at `moment`; true if a new page finds it. */
async function crashTrial(method, moment, key) {
  const context = await browser.newContext();
  const page = await openPage(context);
  const cdp = await context.newCDPSession(page);
  const crashed = new Promise((resolve) => page.once('crash', resolve));
  let asked = 0;
  const crash = () => {
    asked = Date.now();
    cdp.send('Page.crash').catch(() => {});
  }; // never answered: the page is gone
  if (moment === 'after-return') {
    await page.evaluate(({ method, key }) => void window.writes[method](key, window.clickWork()), { method, key });
    crash();
  } else {
    await page.exposeBinding('wrote', () => crash());
    // Not awaited: the page never answers, it spins (up to 10 s) until the crash interrupts it.
    page
      .evaluate(
        ({ method, key, moment }) => {
          const spin = () => {
            window.wrote();
            const end = performance.now() + 10_000;
            while (performance.now() < end);
          };
          window.writes[method](key, window.clickWork())?.catch(() => {});
          if (moment === 'in-task') spin();
          else {
            const channel = new MessageChannel();
            channel.port1.onmessage = spin;
            channel.port2.postMessage(0);
          }
        },
        { method, key, moment },
      )
      .catch(() => {});
  }
  await crashed;
  const crashMs = Date.now() - asked; // far below the 10 s spin: the crash interrupted the writing task
  await page.close().catch(() => {});
  const next = await openPage(context);
  const found = await next.evaluate(({ method, key }) => window.stored(method, key), { method, key });
  await context.close();
  return { found, crashMs };
}

if (!CRASH) {
  const results = Object.fromEntries(methods.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const method of methods) {
      const result = await cost(method);
      results[method].push(result);
      console.log(`round ${round + 1} ${method}: ${JSON.stringify(result)}`);
    }
  }
  const med = (method, key) => median(results[method].map((r) => r[key]));
  const extra = (method, key) => fmt((med(method, key) - med('none', key)) / WRITES, 1);
  const row = (method) =>
    `| ${method} | ${fmt(med(method, 'medianUs'), 1)} | ${fmt(med(method, 'p90Us'), 1)} | ${fmt(med(method, 'meanUs'), 1)} | ${extra(method, 'busyUs')} | ${extra(method, 'threadUs')} | ${extra(method, 'processUs')} |`;
  const report = `\`node bench/browser-storage-write.js --writes ${WRITES} --rounds ${ROUNDS}\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${browser.version()}.
${fmt(WRITES)} tasks, each first doing click-like work (walk up from a button nested five levels deep, a ${fmt(med('none', 'bytes'))}-character JSON
string; median ${fmt(med('none', 'workUs'), 1)} µs), then one timed write of that string; median of ${ROUNDS} rounds, a fresh browser context each.
The last three columns cover the whole run until every transaction completed (later tasks included: IndexedDB's success and
complete events), from CDP \`Performance.getMetrics\` (TaskDuration, ThreadTime, ProcessTime), minus the same run with no write.

| write | µs / write, median | p90 | mean | main-thread task µs / write | main-thread CPU µs / write | renderer CPU µs / write |
| --- | --- | --- | --- | --- | --- | --- |
${methods
  .filter((m) => m !== 'none')
  .map(row)
  .join('\n')}
`;
  console.log('\n' + report);
  if (process.argv.includes('--write'))
    writeBenchmarkSection('browser-storage-write', 'Browser: one durable write per click, localStorage vs IndexedDB', report);
} else {
  const moments = ['in-task', 'next-task', 'after-return'];
  const survived = {};
  for (const method of methods.filter((m) => m !== 'none')) {
    for (const moment of moments) {
      let found = 0;
      const crashMs = [];
      for (let trial = 0; trial < TRIALS; trial++) {
        const result = await crashTrial(method, moment, `crash-${trial}`);
        if (result.found) found++;
        crashMs.push(result.crashMs);
      }
      survived[`${method}|${moment}`] = found;
      console.log(
        `${method} ${moment}: ${found} / ${TRIALS} survived (crash asked to crashed: median ${median(crashMs)} ms, max ${Math.max(...crashMs)} ms)`,
      );
    }
  }
  const report = `\`node bench/browser-storage-write.js --crash --trials ${TRIALS}\` (${new Date().toISOString().slice(0, 10)}), headless Chromium ${browser.version()}.
Records found by a new page of the origin after the renderer was crashed (CDP \`Page.crash\`) right after writing one, out of ${TRIALS}:

| write | crash in the writing task | in the next task | after page.evaluate returned |
| --- | --- | --- | --- |
${methods
  .filter((m) => m !== 'none')
  .map((m) => `| ${m} | ${moments.map((t) => `${survived[`${m}|${t}`]} / ${TRIALS}`).join(' | ')} |`)
  .join('\n')}
`;
  console.log('\n' + report);
  if (process.argv.includes('--write'))
    writeBenchmarkSection('browser-storage-crash', 'Browser: durable write vs a crash of the page', report);
}
await browser.close();
site.close();
