#!/usr/bin/env node
// `npm start`: the main job on a fresh machine, no account and no network. Starts `hogtail dev`
// (the local collector with its live page) on 127.0.0.1, runs examples/node-server against it with
// realistic traffic (identify, groups, page views, surveys, flag checks), serves
// examples/script-tag next to it, and prints the page's URL and a summary of what arrived.
// It then keeps serving until Ctrl-C; `--once` (or CI=true) stops after the summary.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startDevServer } from '../dist/devserver/index.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const once = process.argv.includes('--once') || process.env.CI === 'true';
const dataDir = process.env.HOGTAIL_DEV_DATA ?? root + '.hogtail-dev';

async function startDev() {
  const options = { dataDir, flagsFile: root + 'examples/flags.json', log: (line) => console.log(`hogtail dev: ${line}`) };
  try {
    return await startDevServer({ ...options, port: 8010 });
  } catch {
    return startDevServer({ ...options, port: 0 }); // 8010 is taken: any free port
  }
}

function serveScriptTagExample(devUrl) {
  const files = {
    '/': [root + 'examples/script-tag/index.html', 'text/html; charset=utf-8'],
    '/hogtail.iife.js': [root + 'dist/hogtail.iife.js', 'text/javascript'],
  };
  const server = createServer((req, res) => {
    const file = files[(req.url ?? '/').split('?')[0]];
    if (!file) return res.writeHead(404).end();
    let body = readFileSync(file[0], 'utf8');
    if (file[1].startsWith('text/html')) body = body.replaceAll('http://127.0.0.1:8010', devUrl);
    res.writeHead(200, { 'Content-Type': file[1] }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const dev = await startDev();
const before = dev.summary().events.total;
console.log(`hogtail dev: listening on ${dev.url} (events kept in ${dataDir})`);

const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, [root + 'examples/node-server/run.js'], {
    stdio: 'inherit',
    env: { ...process.env, HOGTAIL_HOST: dev.url },
  });
  child.on('exit', resolve);
});

const summary = dev.summary();
const site = await serveScriptTagExample(dev.url);
const arrived = summary.events.total - before;
console.log(`\nhogtail dev received ${arrived} events this run (${summary.events.total} kept in all), from ${summary.people} people; ${summary.rejections.total} rejected requests.`);
console.log('  all events kept, by name:');
for (const [name, count] of Object.entries(summary.events.byName).sort((a, b) => b[1] - a[1])) {
  console.log(`  ${String(count).padStart(6)}  ${name}`);
}
for (const rejection of summary.rejections.byReason) console.log(`  rejected ${rejection.count}× (${rejection.status}): ${rejection.reason}`);
const variants = {};
for (const user of summary.flags.users) {
  const value = String(user.flags['checkout-button']);
  variants[value] = (variants[value] ?? 0) + 1;
}
console.log(`  flags: ${summary.flags.definitions.length} defined in examples/flags.json; checkout-button by user: ${JSON.stringify(variants)}`);
console.log(`\n  Live events page:     ${dev.url}/`);
console.log(`  Script-tag example:   http://127.0.0.1:${site.address().port}/  (open it, click around, watch the page)`);

const ok = code === 0 && arrived > 0;
if (once) {
  site.close();
  await dev.close();
  process.exit(ok ? 0 : 1);
}
console.log('\nPress Ctrl-C to stop.');
process.on('SIGINT', async () => {
  site.close();
  await dev.close();
  process.exit(0);
});
