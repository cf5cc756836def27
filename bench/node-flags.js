#!/usr/bin/env node
// Decide requests (and wall time) for flag-heavy Node traffic: hogtail vs posthog-node, same run.
//   node bench/node-flags.js [--write]
// 1) 10,000 capture({ sendFeatureFlags: true }) over 1,000 users, then shutdown.
// 2) 10,000 getFeatureFlag() calls over 100 users.
// 3) Local evaluation with a personal key, both SDKs polling the same definitions from the same
//    server: getFeatureFlag checks per second (10 flags x 10,000 users, person properties given so
//    every flag is decidable locally), getAllFlags per second, and the requests each made.
// 4) Local evaluation of 6,000 flags whose first condition depends on a flag missing from the
//    definitions (their second decides): getAllFlags per call, local answers only, both SDKs.
// The loopback server answers both decide (/decide/?v=3, hogtail) and /flags/ (posthog-node 5),
// with both answer shapes, serves the definitions on both local-evaluation paths, and
// counts requests by path.
//   --local-only: sections 3 and 4 only (1 and 2 wait out posthog-node's shutdown timeouts).
//   HOGTAIL_BENCH_NODE=<file>: the hogtail Node build to measure (default dist/node/index.js), to
//   compare an older build in the same run conditions.
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PostHog as PostHogNode } from 'posthog-node';
import { writeBenchmarkSection } from './lib/write-section.js';

const { PostHog: Hogtail } = await import(
  process.env.HOGTAIL_BENCH_NODE ? pathToFileURL(process.env.HOGTAIL_BENCH_NODE).href : '../dist/node/index.js'
);
const localOnly = process.argv.includes('--local-only');

const PERSONAL_KEY = 'phx_bench_personal_key';
const percent = (i) => ({ properties: [], rollout_percentage: 10 + 9 * i });
const DEFINITIONS = JSON.stringify({
  group_type_mapping: { 0: 'company' },
  cohorts: { 1: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] }] } },
  flags: [
    ...[0, 1, 2, 3].map((i) => ({ id: i + 1, key: `rollout-${i}`, active: true, filters: { groups: [percent(i)] } })),
    {
      id: 5,
      key: 'exp',
      active: true,
      filters: {
        groups: [percent(9)],
        multivariate: {
          variants: [
            { key: 'a', rollout_percentage: 34 },
            { key: 'b', rollout_percentage: 33 },
            { key: 'c', rollout_percentage: 33 },
          ],
        },
        payloads: { a: '{"x":1}' },
      },
    },
    {
      id: 6,
      key: 'pro',
      active: true,
      filters: { groups: [{ properties: [{ key: 'plan', value: ['pro', 'team'], type: 'person' }], rollout_percentage: 100 }] },
    },
    {
      id: 7,
      key: 'email',
      active: true,
      filters: {
        groups: [{ properties: [{ key: 'email', operator: 'icontains', value: '@acme', type: 'person' }], rollout_percentage: 50 }],
      },
    },
    {
      id: 8,
      key: 'signup',
      active: true,
      filters: {
        groups: [{ properties: [{ key: 'signed_up', operator: 'is_date_after', value: '-30d', type: 'person' }], rollout_percentage: 100 }],
      },
    },
    {
      id: 9,
      key: 'cohort',
      active: true,
      filters: { groups: [{ properties: [{ key: 'id', value: 1, type: 'cohort' }], rollout_percentage: 100 }] },
    },
    {
      id: 10,
      key: 'age',
      active: true,
      filters: { groups: [{ properties: [{ key: 'age', operator: 'gte', value: 30, type: 'person' }], rollout_percentage: 100 }] },
    },
  ],
});
const LOCAL_KEYS = JSON.parse(DEFINITIONS).flags.map((flag) => flag.key);
const DEPENDENT_FLAGS = 6_000;
const ON_MISSING = JSON.stringify({
  flags: Array.from({ length: DEPENDENT_FLAGS }, (_, i) => ({
    id: 100 + i,
    key: `dependent-${i}`,
    active: true,
    filters: {
      groups: [
        { properties: [{ key: 'missing-flag', type: 'flag', value: true, operator: 'flag_evaluates_to' }], rollout_percentage: 100 },
        { properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 },
      ],
    },
  })),
});
/** What the definitions paths serve; section 4 swaps in ON_MISSING. */
let definitionsBody = DEFINITIONS;

const counts = { flags: 0, batchEvents: 0, definitions: 0 };
const server = http.createServer((req, res) => {
  if (req.url.startsWith('/flags/definitions') || req.url.startsWith('/api/feature_flag/local_evaluation')) {
    counts.definitions++;
    res.writeHead(req.headers.authorization === `Bearer ${PERSONAL_KEY}` ? 200 : 401, { 'content-type': 'application/json', etag: '"v1"' });
    res.end(definitionsBody);
    return;
  }
  // Counted on arrival: a flood of concurrent requests may not all get an answer.
  if (req.url.startsWith('/decide') || req.url.startsWith('/flags')) counts.flags++;
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    let body = Buffer.concat(chunks);
    if (body[0] === 0x1f && body[1] === 0x8b) body = gunzipSync(body);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url.startsWith('/decide') || req.url.startsWith('/flags')) {
      // Both shapes in one answer: v2 readers (posthog-node 5 on /flags) need the per-flag `flags`
      // object and count an answer without it as a failed request; decide readers use featureFlags.
      const featureFlags = { beta: true, checkout: 'variant-b', off: false };
      const flags = Object.fromEntries(
        Object.entries(featureFlags).map(([key, value]) => [
          key,
          {
            key,
            enabled: value !== false,
            variant: typeof value === 'string' ? value : null,
            reason: { code: 'condition_match' },
            metadata: { id: 1, version: 1, payload: null },
          },
        ]),
      );
      res.end(JSON.stringify({ flags, featureFlags, featureFlagPayloads: {}, errorsWhileComputingFlags: false }));
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
for (const [name, make] of Object.entries(localOnly ? {} : makers)) {
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

// 3) Local evaluation.
const localMakers = {
  hogtail: () => new Hogtail('phc_bench', { host, personalApiKey: PERSONAL_KEY, flushOnExitTimeout: 0 }),
  'posthog-node': () => new PostHogNode('phc_bench', { host, personalApiKey: PERSONAL_KEY, maxQueueSize: 100_000 }),
};
const person = (u) => ({
  plan: u % 3 ? 'free' : 'pro',
  email: `u${u}@${u % 2 ? 'acme' : 'other'}.com`,
  signed_up: new Date(Date.now() - (u % 60) * 86_400_000).toISOString(),
  age: 18 + (u % 50),
});
const localRows = [];
for (const [name, make] of Object.entries(localMakers)) {
  counts.flags = counts.definitions = 0;
  const client = make();
  if (!(await client.waitForLocalEvaluationReady(10_000))) throw new Error(`${name}: definitions did not load`);
  const checks = 100_000;
  let on = 0;
  let t0 = performance.now();
  for (let i = 0; i < checks; i++) {
    const u = i % 10_000;
    const value = await client.getFeatureFlag(LOCAL_KEYS[i % LOCAL_KEYS.length], `user-${u}`, {
      personProperties: person(u),
      sendFeatureFlagEvents: false,
    });
    if (value) on++;
  }
  const checkMs = performance.now() - t0;
  t0 = performance.now();
  for (let u = 0; u < 10_000; u++) await client.getAllFlags(`user-${u}`, { personProperties: person(u) });
  const allMs = performance.now() - t0;
  localRows.push({
    name,
    checksPerSec: (checks / checkMs) * 1000,
    allPerSec: (10_000 / allMs) * 1000,
    on,
    definitions: counts.definitions,
    remote: counts.flags,
  });
  await client.shutdown(10_000);
  console.error(
    `${name}: ${Math.round((checks / checkMs) * 1000)} checks/s, ${counts.definitions} definitions requests, ${counts.flags} flag requests`,
  );
}

// 4) 6,000 flags on a missing flag: each call answers from local evaluation only.
definitionsBody = ON_MISSING;
const dependentRows = [];
for (const [name, make] of Object.entries(localMakers)) {
  const client = make();
  if (!(await client.waitForLocalEvaluationReady(30_000))) throw new Error(`${name}: definitions did not load`);
  const calls = 5;
  let answered = 0;
  const t0 = performance.now();
  for (let u = 0; u < calls; u++) {
    const all = await client.getAllFlags(`user-${u}`, { personProperties: { plan: 'pro' }, onlyEvaluateLocally: true });
    answered += Object.values(all).filter((value) => value === true).length;
  }
  const perCallMs = (performance.now() - t0) / calls;
  dependentRows.push({ name, perCallMs, answered: answered / calls });
  await client.shutdown(10_000);
  console.error(
    `${name}: getAllFlags over ${DEPENDENT_FLAGS} flags on a missing flag: ${Math.round(perCallMs)} ms per call, ${answered / calls} answered`,
  );
}
server.close();

const lines = [
  `Command: \`node bench/node-flags.js\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version})`,
  '',
  '| SDK | decide requests for 10,000 captures with sendFeatureFlags (1,000 users) | events delivered | errors reported | wall ms | decide requests for 10,000 getFeatureFlag (100 users) | wall ms |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...rows.map(
    (r) =>
      `| ${r.name} | ${r.captureDecides.toLocaleString('en-US')} | ${r.captured.toLocaleString('en-US')} | ${r.errors} | ${Math.round(r.captureMs)} | ${r.getDecides.toLocaleString('en-US')} | ${Math.round(r.getMs)} |`,
  ),
];
const table = lines.join('\n');
if (!localOnly) console.log(table);
const localTable = [
  `Command: \`npm run build && node bench/node-flags.js\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}); both SDKs with the same personal key, polling the same 10 definitions (rollouts, a multivariate flag, exact/icontains/relative-date/gte conditions, a cohort) from the same loopback server.`,
  '',
  '| SDK | getFeatureFlag checks/s (100,000 over 10 flags x 10,000 users) | getAllFlags/s (10,000 users) | flags on (same for both = same answers) | definitions requests | remote flag requests |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...localRows.map(
    (r) =>
      `| ${r.name} | ${Math.round(r.checksPerSec).toLocaleString('en-US')} | ${Math.round(r.allPerSec).toLocaleString('en-US')} | ${r.on.toLocaleString('en-US')} | ${r.definitions} | ${r.remote} |`,
  ),
].join('\n');
console.log(localTable);
const dependentTable = [
  `Command: \`npm run build && node bench/node-flags.js --local-only\` (${new Date().toISOString().slice(0, 10)}, Node ${process.version}); ${DEPENDENT_FLAGS.toLocaleString('en-US')} flags whose first condition depends on a flag missing from the definitions and whose second (plan = pro) decides them; getAllFlags with onlyEvaluateLocally, 5 users.`,
  '',
  '| SDK | ms per getAllFlags | flags answered true per call |',
  '| --- | ---: | ---: |',
  ...dependentRows.map((r) => `| ${r.name} | ${Math.round(r.perCallMs).toLocaleString('en-US')} | ${r.answered.toLocaleString('en-US')} |`),
].join('\n');
console.log(dependentTable);
if (process.argv.includes('--write')) {
  if (!localOnly) writeBenchmarkSection('node-flags', 'Node feature flags', table);
  writeBenchmarkSection('node-flags-local', 'Node local flag evaluation', localTable);
  writeBenchmarkSection('node-flags-dependent', 'Node local evaluation: 6,000 flags on a missing flag', dependentTable);
}
process.exit(0);
