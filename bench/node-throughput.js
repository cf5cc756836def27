#!/usr/bin/env node
// hogtail vs posthog-node, same machine, same run: N events over U users with ~10 properties each,
// to a loopback collector in its own process. Every SDK run is a fresh process.
//   node bench/node-throughput.js [--events 100000] [--users 1000] [--rounds 3] [--write]
// --write puts the table into BENCHMARKS.md between the node-throughput markers.
import { fork } from 'node:child_process';
import { cpus } from 'node:os';
import { writeBenchmarkSection } from './lib/write-section.js';
import { arg } from './lib/args.js';

const events = Number(arg('events', 100_000));
const users = Number(arg('users', 1_000));
const rounds = Number(arg('rounds', 3));
const sdks = arg('sdks', 'hogtail,hogtail-fflate,posthog-node,posthog-node-tuned').split(',');
const here = new URL('.', import.meta.url).pathname;

function once(child, predicate) {
  return new Promise((resolve, reject) => {
    const onMessage = (message) => {
      if (predicate(message)) {
        child.off('message', onMessage);
        resolve(message);
      }
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`process exited (${code}) before answering`)));
  });
}

const rules = process.argv.includes('--rules');
const collector = fork(`${here}collector-process.js`, rules ? ['--rules'] : [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const { url } = await once(collector, (m) => m.url !== undefined);
const ask = (message, key) => {
  const answer = once(collector, (m) => m[key] !== undefined);
  collector.send(message);
  return answer;
};

const results = Object.fromEntries(sdks.map((sdk) => [sdk, []]));
for (let round = 0; round < rounds; round++) {
  for (const sdk of sdks) {
    await ask('reset', 'reset');
    const child = fork(`${here}node-client-run.js`, [sdk, url, String(events), String(users)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const run = await once(child, (m) => m.sdk !== undefined);
    child.kill();
    // Give the collector a moment to finish parsing the last request it acknowledged.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stats = await ask('stats', 'received');
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
    console.error(`round ${round + 1} ${sdk}: ${Math.round(row.eventsPerSec)} ev/s, ${row.cpuUsPerEvent.toFixed(1)} CPU µs/ev, lost ${row.lost}`);
  }
}
collector.send('close');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};
const fmt = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

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
