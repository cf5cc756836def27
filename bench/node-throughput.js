#!/usr/bin/env node
// hogtail vs posthog-node, same machine, same run: N events over U users with ~10 properties each,
// to a loopback collector in its own process. Every SDK run is a fresh process.
//   node bench/node-throughput.js [--events 100000] [--users 1000] [--rounds 3] [--write]
// --write puts the table into BENCHMARKS.md between the node-throughput markers.
import { cpus } from 'node:os';
import { writeBenchmarkSection } from './lib/write-section.js';
import { arg } from './lib/args.js';
import { fmt, median, runMeasured, startCollector } from './lib/processes.js';

const events = Number(arg('events', 100_000));
const users = Number(arg('users', 1_000));
const rounds = Number(arg('rounds', 3));
const sdks = arg('sdks', 'hogtail,hogtail-fflate,posthog-node,posthog-node-tuned').split(',');
const here = new URL('.', import.meta.url).pathname;

const rules = process.argv.includes('--rules');
const collector = await startCollector(rules ? ['--rules'] : []);

const results = Object.fromEntries(sdks.map((sdk) => [sdk, []]));
for (let round = 0; round < rounds; round++) {
  for (const sdk of sdks) {
    await collector.reset();
    const run = await runMeasured(`${here}node-client-run.js`, [sdk, collector.url, String(events), String(users)], 'sdk');
    const stats = await collector.stats();
    const row = {
      ...run,
      received: stats.received,
      lost: events - stats.received,
      duplicates: stats.duplicates,
      requests: stats.requests,
      eventsPerSec: (stats.received / run.endToEndMs) * 1000,
      wireBytesPerEvent: stats.received ? stats.wireBytes / stats.received : NaN,
    };
    results[sdk].push(row);
    console.error(
      `round ${round + 1} ${sdk}: ${Math.round(row.eventsPerSec)} ev/s, ${row.cpuUsPerEvent.toFixed(1)} CPU µs/ev, lost ${row.lost}`,
    );
  }
}
collector.close();

const command = `node bench/node-throughput.js --events ${events} --users ${users} --rounds ${rounds} --sdks ${sdks.join(',')}${rules ? ' --rules' : ''}`;
const lines = [
  `Command: \`${command}\` (median of ${rounds} rounds; ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
  '',
  '| SDK | events/s end to end | µs per capture() | CPU µs per event | peak RSS MB | wire bytes per event | requests | lost | duplicates |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const sdk of sdks) {
  const rows = results[sdk];
  const m = (key) => median(rows.map((r) => r[key]));
  lines.push(
    `| ${sdk} | ${Math.round(m('eventsPerSec')).toLocaleString('en-US')} | ${fmt(m('captureUsPerCall'), 2)} | ${fmt(m('cpuUsPerEvent'))} | ${fmt(m('peakRssMb'), 0)} | ${fmt(m('wireBytesPerEvent'))} | ${Math.round(m('requests'))} | ${Math.round(m('lost'))} | ${Math.round(m('duplicates'))} |`,
  );
}
const table = lines.join('\n');
console.log(table);

if (process.argv.includes('--write')) writeBenchmarkSection('node-throughput', 'Node throughput', table);
