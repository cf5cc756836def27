#!/usr/bin/env node
// Memory over time under a steady load, the way a busy server captures: R events/s in 10 ms ticks
// (the event loop runs between ticks, so the SDK can send), N events in all, to a loopback collector
// in its own process. Every tenth of the way the child collects garbage and records heap and RSS: a
// flat line means memory does not grow with the number of events sent, only with what is in flight.
//   node bench/node-memory.js [--events 500000] [--rate 25000] [--sdks hogtail,posthog-node,posthog-node-tuned] [--write]
// Needs dist/ (npm run build). --write puts the table into BENCHMARKS.md between the node-memory markers.
import { cpus } from 'node:os';
import { arg } from './lib/args.js';
import { fmt, runMeasured, startCollector } from './lib/processes.js';
import { userProperties } from './lib/workload.js';
import { writeBenchmarkSection } from './lib/write-section.js';

if (process.argv[2] === '--child') await runChild(...process.argv.slice(3));
else await runParent();

async function makeClient(sdk, url, count) {
  if (sdk === 'hogtail') {
    const { PostHog } = await import('../dist/node/index.js');
    return new PostHog('phc_bench', { host: url, flushOnExitTimeout: 0 });
  }
  const { PostHog } = await import('posthog-node');
  const tuned = sdk === 'posthog-node-tuned' ? { maxQueueSize: count, flushAt: 1000, maxBatchSize: 1000 } : {};
  return new PostHog('phc_bench', { host: url, ...tuned });
}

async function runChild(sdk, url, countArg, rateArg) {
  const count = Number(countArg);
  const perTick = Math.max(1, Math.round(Number(rateArg) / 100));
  const client = await makeClient(sdk, url, count);
  let errors = 0;
  client.on?.('error', () => errors++);
  const props = userProperties(1_000);
  const samples = [];
  const sample = (captured) => {
    globalThis.gc();
    const { heapUsed, rss } = process.memoryUsage();
    samples.push({ captured, heapMb: heapUsed / 1048576, rssMb: rss / 1048576 });
  };
  sample(0);
  const started = performance.now();
  let captured = 0;
  while (captured < count) {
    const tickEnd = Math.min(count, captured + perTick);
    for (; captured < tickEnd; captured++) {
      const user = captured % 1_000;
      client.capture({ distinctId: `user-${user}`, event: captured % 5 === 0 ? '$pageview' : 'product viewed', properties: props[user] });
    }
    if (captured % (count / 10) < perTick) sample(captured);
    // Hold the rate: the next tick starts when it is due (at least one turn of the event loop).
    const due = started + (captured / perTick) * 10;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  const captureSeconds = (performance.now() - started) / 1000;
  await client.shutdown(120_000);
  sample(count);
  process.send({ sdk, samples, achievedRate: count / captureSeconds, errors }, () => process.exit(0));
}

async function runParent() {
  const events = Number(arg('events', 500_000));
  const rate = Number(arg('rate', 25_000));
  const sdks = arg('sdks', 'hogtail,posthog-node,posthog-node-tuned').split(',');
  const collector = await startCollector();
  const rows = [];
  for (const sdk of sdks) {
    await collector.reset();
    const run = await runMeasured(
      new URL(import.meta.url).pathname,
      ['--child', sdk, collector.url, String(events), String(rate)],
      'samples',
      ['--expose-gc'],
    );
    const stats = await collector.stats();
    rows.push({ ...run, lost: events - stats.received });
    const heap = run.samples.map((s) => fmt(s.heapMb, 0)).join(' ');
    console.error(`${sdk}: heap MB at each tenth ${heap}; lost ${events - stats.received}`);
  }
  collector.close();

  const at = (run, fraction) => run.samples.find((s) => s.captured >= events * fraction) ?? run.samples.at(-1);
  const command = `node bench/node-memory.js --events ${events} --rate ${rate} --sdks ${sdks.join(',')}`;
  const lines = [
    `Command: \`${command}\` (${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; heap after a full GC)`,
    '',
    '| SDK | achieved events/s | heap MB at 10% | at 50% | at 100% (before shutdown) | RSS MB at 10% | at 100% | lost |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const run of rows) {
    const [a, b, c] = [at(run, 0.1), at(run, 0.5), run.samples.at(-2)];
    lines.push(
      `| ${run.sdk} | ${Math.round(run.achievedRate).toLocaleString('en-US')} | ${fmt(a.heapMb)} | ${fmt(b.heapMb)} | ${fmt(c.heapMb)} | ${fmt(a.rssMb, 0)} | ${fmt(c.rssMb, 0)} | ${run.lost.toLocaleString('en-US')} |`,
    );
  }
  const table = lines.join('\n');
  console.log(table);
  if (process.argv.includes('--write')) writeBenchmarkSection('node-memory', 'Node memory under steady load', table);
}
