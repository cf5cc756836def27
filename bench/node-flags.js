#!/usr/bin/env node
// Decide requests (and wall time) for flag-heavy Node traffic: hogtail vs posthog-node, same run.
//   node bench/node-flags.js [--write]
// 1) 10,000 capture({ sendFeatureFlags: true }) over 1,000 users, then shutdown.
// 2) 10,000 getFeatureFlag() calls over 100 users.
// The loopback server answers both decide (/decide/?v=3, hogtail) and /flags/ (posthog-node 5),
// in the v3 shape both understand, and counts requests by path.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { PostHog as PostHogNode } from 'posthog-node';
import { writeBenchmarkSection } from './lib/write-section.js';
import { PostHog as Hogtail } from '../dist/node/index.js';

const counts = { flags: 0, batchEvents: 0 };
const server = http.createServer((req, res) => {
  // Counted on arrival: a flood of concurrent requests may not all get an answer.
  if (req.url.startsWith('/decide') || req.url.startsWith('/flags')) counts.flags++;
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body = Buffer.concat(chunks);
    if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url.startsWith('/decide') || req.url.startsWith('/flags')) {
      res.end(JSON.stringify({ featureFlags: { beta: true, checkout: 'variant-b', off: false }, featureFlagPayloads: {} }));
    } else {
      const parsed = JSON.parse(body.toString('utf8'));
      counts.batchEvents += parsed.batch?.length ?? 1;
      res.end('{"status":"Ok"}');
    }
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', 4096, resolve));
const host = `http://127.0.0.1:${server.address().port}`;

const makers = {
  hogtail: () => new Hogtail('phc_bench', { host, flushOnExitTimeout: 0 }),
  'posthog-node': () => new PostHogNode('phc_bench', { host, maxQueueSize: 100_000 }),
};

const rows = [];
for (const [name, make] of Object.entries(makers)) {
  counts.flags = counts.batchEvents = 0;
  let client = make();
  let errors = 0;
  client.on('error', () => errors++);
  let t0 = performance.now();
  for (let i = 0; i < 10_000; i++) client.capture({ distinctId: `user-${i % 1000}`, event: 'e', sendFeatureFlags: true });
  await client.shutdown(60_000);
  const captureMs = performance.now() - t0;
  const captureDecides = counts.flags;
  const captured = counts.batchEvents;

  counts.flags = 0;
  client = make();
  t0 = performance.now();
  for (let i = 0; i < 10_000; i++) await client.getFeatureFlag('beta', `user-${i % 100}`);
  const getMs = performance.now() - t0;
  const getDecides = counts.flags;
  await client.shutdown(60_000);
  rows.push({ name, captureDecides, captured, captureMs, getDecides, getMs, errors });
  console.error(`${name}: capture ${captureDecides} decides, get ${getDecides} decides`);
}
server.close();

const lines = [
  `Command: \`node bench/node-flags.js\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
  '',
  '| SDK | decide requests for 10,000 captures with sendFeatureFlags (1,000 users) | events delivered | errors reported | wall ms | decide requests for 10,000 getFeatureFlag (100 users) | wall ms |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) => `| ${r.name} | ${r.captureDecides.toLocaleString('en-US')} | ${r.captured.toLocaleString('en-US')} | ${r.errors} | ${Math.round(r.captureMs)} | ${r.getDecides.toLocaleString('en-US')} | ${Math.round(r.getMs)} |`,
  ),
];
const table = lines.join('\n');
console.log(table);
if (process.argv.includes('--write')) writeBenchmarkSection('node-flags', 'Node feature flags', table);
process.exit(0);
