#!/usr/bin/env node
// Starts the example shop with hogtail pointed at HOGTAIL_HOST (default: a local `hogtail dev` on
// 127.0.0.1:8010), drives realistic traffic from simulated users, then shuts hogtail down cleanly.
//   HOGTAIL_HOST=http://127.0.0.1:8010 node examples/node-server/run.js [users]
import { PostHog } from 'hogtail/node';
import { createShopServer } from './app.js';

const host = process.env.HOGTAIL_HOST ?? 'http://127.0.0.1:8010';
const users = Number(process.argv[2] ?? 40);
const posthog = new PostHog(process.env.HOGTAIL_API_KEY ?? 'phc_example_project', { host, flushAt: 50, flushInterval: 1000 });
posthog.on('error', (error) => console.error(`[example] ${error.name}: ${error.message}`));

const server = createShopServer(posthog);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

async function visit(userIndex) {
  const headers = { 'x-user-id': `user-${userIndex}`, 'x-company': `company-${userIndex % 5}` };
  await fetch(`${base}/login`, { method: 'POST', headers });
  for (let p = 0; p < 4; p++) await fetch(`${base}/products/${(userIndex * 7 + p) % 30}`, { headers });
  if (userIndex % 3 === 0) await fetch(`${base}/checkout`, { method: 'POST', headers });
  if (userIndex % 4 === 0) await fetch(`${base}/survey`, { method: 'POST', headers });
  await fetch(`${base}/app/settings`, { headers });
}

await Promise.all(Array.from({ length: users }, (_, i) => visit(i)));
server.close();
await posthog.shutdown(10_000);
const stats = posthog.stats();
console.log(`[example] ${users} users: captured ${stats.enqueued}, delivered ${stats.delivered}, dropped ${JSON.stringify(stats.dropped)}`);
