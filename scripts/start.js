#!/usr/bin/env node
// `npm start`: the main job on a fresh machine with no account and no network. Starts a local
// collector on 127.0.0.1, runs examples/node-server against it, and prints what arrived.
import { spawn } from 'node:child_process';
import { createCollector } from '../dist/devserver/index.js';

const collector = await createCollector();
console.log(`hogtail: local collector listening on ${collector.url}`);

const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, ['examples/node-server/run.js'], {
    stdio: 'inherit',
    env: { ...process.env, HOGTAIL_HOST: collector.url },
  });
  child.on('exit', resolve);
});

const byEvent = new Map();
for (const event of collector.events) byEvent.set(event.event, (byEvent.get(event.event) ?? 0) + 1);
console.log(`\nhogtail: the collector received ${collector.events.length} events in ${collector.requests} requests, ${collector.rejections.length} rejected requests`);
for (const [name, count] of [...byEvent].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(5)}  ${name}`);
const sample = collector.events.find((e) => e.event === 'order placed');
if (sample) console.log('\nOne event as the server saw it:\n' + JSON.stringify(sample, null, 2));
await collector.close();
process.exit(code === 0 && collector.events.length > 0 && collector.rejections.length === 0 ? 0 : 1);
