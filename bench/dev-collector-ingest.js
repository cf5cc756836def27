#!/usr/bin/env node
// How fast `hogtail dev` takes events: the real CLI (`bin/hogtail.js dev`, its own process, a fresh
// data directory per round) receives gzip batches of browser-like events from a few keep-alive
// connections, with the live page's stream open, until every event is acknowledged. Reports events/s
// from the first request to the last answer, the server's CPU per event, and whether the server
// stored every event (its own count, from /_dev/summary).
//   node bench/dev-collector-ingest.js [--events 300000] [--batch 1000] [--connections 4] [--rounds 3] [--watchers 1] [--profile DIR] [--cli FILE] [--write]
// Needs dist/ (npm run build). --cli runs another build of the command (e.g. another checkout's bin/hogtail.js). --profile writes the server's CPU profile (node --cpu-prof) into DIR.
// --write puts the table into BENCHMARKS.md between the dev-collector-ingest markers.
import { spawn } from 'node:child_process';
import { once as onceEvent } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { arg } from './lib/args.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const eventCount = Number(arg('events', 300_000));
const batchSize = Number(arg('batch', 1_000));
const connections = Number(arg('connections', 4));
const rounds = Number(arg('rounds', 3));
const watchers = Number(arg('watchers', 1));
const profileDir = arg('profile', undefined);
const repo = new URL('..', import.meta.url).pathname;
const cli = arg('cli', join(repo, 'bin/hogtail.js'));

/** What posthog-js sends for a page view or a click: about 30 properties, ~1 KB of JSON. */
function browserEvent(index) {
  const user = index % 2_000;
  const page = index % 40;
  return {
    event: index % 4 === 0 ? '$pageview' : index % 4 === 1 ? '$autocapture' : 'product viewed',
    distinct_id: user % 3 === 0 ? `user-${user}@example.com` : `0193a8c2-7f1e-7c3a-9b2d-${String(user).padStart(12, '0')}`,
    uuid: `0193a8c2-${(index >>> 16).toString(16).padStart(4, '0')}-7000-8000-${index.toString(16).padStart(12, '0')}`,
    timestamp: new Date(Date.UTC(2026, 10, 29, 12) + index * 10).toISOString(),
    properties: {
      $current_url: `https://shop.example.com/products/${page}?utm_source=newsletter`,
      $host: 'shop.example.com',
      $pathname: `/products/${page}`,
      $referrer: 'https://www.google.com/',
      $referring_domain: 'www.google.com',
      $browser: 'Chrome',
      $browser_version: 131,
      $os: 'Mac OS X',
      $os_version: '15.1.0',
      $device_type: 'Desktop',
      $screen_height: 1117,
      $screen_width: 1728,
      $viewport_height: 980,
      $viewport_width: 1728,
      $lib: 'hogtail-web',
      $lib_version: '0.1.0',
      $insert_id: `ins${index.toString(36)}`,
      $time: 1_764_417_600 + index / 100,
      $device_id: `0193a8c2-7f1e-7c3a-9b2d-${String(user).padStart(12, '0')}`,
      $session_id: `0193a8c2-8a00-7000-8000-${String(user % 500).padStart(12, '0')}`,
      $window_id: `0193a8c2-8b00-7000-8000-${String(user % 700).padStart(12, '0')}`,
      $pageview_id: `0193a8c2-8c00-7000-8000-${String(index % 9_000).padStart(12, '0')}`,
      $is_identified: user % 3 === 0,
      $process_person_profile: user % 3 === 0,
      token: 'phc_bench',
      plan: user % 3 === 0 ? 'pro' : 'free',
      cart_items: user % 7,
      cart_total: (user % 7) * 19.99,
      experiment: 'checkout-v2',
    },
  };
}

/** Every request body, gzipped before the clock starts: the sender's work is not what is measured. */
function prepareBodies() {
  const bodies = [];
  for (let start = 0; start < eventCount; start += batchSize) {
    const batch = [];
    for (let index = start; index < Math.min(eventCount, start + batchSize); index++) batch.push(browserEvent(index));
    bodies.push({
      count: batch.length,
      body: gzipSync(JSON.stringify({ api_key: 'phc_bench', batch, sent_at: new Date().toISOString() })),
    });
  }
  return bodies;
}

/** `hogtail dev --port 0` from the built CLI; resolves once its banner names the address. */
async function startDev(dataDir, round) {
  const execArgv =
    profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir, '--cpu-prof-name', `dev-round-${round}.cpuprofile`];
  const child = spawn(process.execPath, [...execArgv, cli, 'dev', '--port', '0', '--data', dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let banner = '';
  child.stdout.setEncoding('utf8');
  for await (const chunk of child.stdout) {
    banner += chunk;
    const match = /listening on (http:\/\/[\d.]+:\d+)/.exec(banner);
    if (match) {
      child.stdout.resume();
      return { child, url: match[1] };
    }
  }
  throw new Error(`hogtail dev exited before listening:\n${banner}`);
}

/** user + system CPU of a process so far, in milliseconds (Linux /proc; 0 elsewhere). */
function processCpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** An open live page: reads /_dev/stream and throws the data away, as a browser tab would render it. */
function openWatcher(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/_dev/stream`, (res) => {
      res.on('data', () => {});
      resolve(() => req.destroy());
    });
    req.on('error', (error) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
  });
}

function post(agent, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${url}/batch/`,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': body.length } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`the dev server answered ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function runRound(bodies, round) {
  const dataDir = mkdtempSync(join(tmpdir(), 'hogtail-dev-ingest-bench-'));
  const { child, url } = await startDev(dataDir, round);
  const closeWatchers = await Promise.all(Array.from({ length: watchers }, () => openWatcher(url)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let next = 0;
  const cpu0 = processCpuMs(child.pid);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < bodies.length) await post(agent, url, bodies[next++].body);
    }),
  );
  const ms = performance.now() - started;
  const serverCpuMs = processCpuMs(child.pid) - cpu0;
  const summary = await (await fetch(`${url}/_dev/summary`)).json();
  for (const close of closeWatchers) close();
  agent.destroy();
  child.kill('SIGINT');
  await onceEvent(child, 'exit');
  rmSync(dataDir, { recursive: true, force: true });
  return {
    ms,
    eventsPerSec: (eventCount / ms) * 1000,
    serverCpuUsPerEvent: (serverCpuMs * 1000) / eventCount,
    stored: summary.events.total,
  };
}

const bodies = prepareBodies();
const wireBytes = bodies.reduce((sum, { body }) => sum + body.length, 0);
const runs = [];
for (let round = 1; round <= rounds; round++) {
  const run = await runRound(bodies, round);
  runs.push(run);
  console.error(
    `round ${round}: ${Math.round(run.eventsPerSec).toLocaleString('en-US')} events/s, server CPU ${run.serverCpuUsPerEvent.toFixed(1)} µs per event, stored ${run.stored} of ${eventCount}`,
  );
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const rates = runs.map((run) => run.eventsPerSec).sort((a, b) => a - b);
const command = `node bench/dev-collector-ingest.js --events ${eventCount} --batch ${batchSize} --connections ${connections} --rounds ${rounds} --watchers ${watchers}`;
const table = [
  `Command: \`${command}\` (${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; sender and server share the machine)`,
  '',
  '| round | events/s | server CPU µs per event | stored |',
  '| --- | ---: | ---: | ---: |',
  ...runs.map(
    (run, index) =>
      `| ${index + 1} | ${fmt(run.eventsPerSec)} | ${run.serverCpuUsPerEvent.toFixed(1)} | ${fmt(run.stored)} of ${fmt(eventCount)} |`,
  ),
  '',
  `Range ${fmt(rates[0])}–${fmt(rates[rates.length - 1])} events/s; ${(wireBytes / eventCount).toFixed(0)} gzip bytes per event on the wire, ${JSON.stringify(browserEvent(1)).length} bytes of JSON.`,
].join('\n');
console.log(table);
if (runs.some((run) => run.stored !== eventCount)) {
  console.error('the dev server did not store every acknowledged event');
  process.exitCode = 1;
}
if (process.argv.includes('--write')) writeBenchmarkSection('dev-collector-ingest', 'hogtail dev: ingest rate', table);
