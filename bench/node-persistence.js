#!/usr/bin/env node
// The cost of the crash-safe queue: hogtail with the in-memory queue vs persistence: { type: 'file' }
// in both fsync modes, N events over U users with ~10 properties each, to a loopback collector in its
// own process. Every run is a fresh process with a fresh journal directory.
//   node bench/node-persistence.js [--events 100000] [--users 1000] [--rounds 3] [--modes memory,interval,always] [--write]
// Needs dist/ (npm run build). --write puts the table into BENCHMARKS.md between the node-persistence markers.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { writeBenchmarkSection } from './lib/write-section.js';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureCaptureRun } from './lib/workload.js';
import { arg } from './lib/args.js';
import { fmt, median, runMeasured, startCollector } from './lib/processes.js';

if (process.argv[2] === '--child') await runChild(...process.argv.slice(3));
else await runParent();

// One measured run, in its own process: the same loop as bench/node-client-run.js.
async function runChild(mode, url, countArg, usersArg, dir) {
  const count = Number(countArg);
  const users = Number(usersArg);

  const { PostHog } = await import('../dist/node/index.js');
  const persistence = mode === 'memory' ? 'memory' : { type: 'file', path: dir, fsync: mode };
  const client = new PostHog('phc_bench', { host: url, flushOnExitTimeout: 0, persistence });
  let errors = 0;
  client.on('error', () => errors++);

  const measured = await measureCaptureRun(client, { count, users, shutdownMs: 300_000 });
  const journal = join(dir, 'hogtail.journal');
  process.send(
    {
      mode,
      ...measured,
      journalKb: existsSync(journal) ? statSync(journal).size / 1024 : 0,
      errors,
    },
    () => process.exit(0),
  );
}

async function runParent() {
  const events = Number(arg('events', 100_000));
  const users = Number(arg('users', 1_000));
  const rounds = Number(arg('rounds', 3));
  const modes = arg('modes', 'memory,interval,always').split(',');
  const collector = await startCollector();

  const results = Object.fromEntries(modes.map((mode) => [mode, []]));
  for (let round = 0; round < rounds; round++) {
    for (const mode of modes) {
      await collector.reset();
      const dir = mkdtempSync(join(tmpdir(), 'hogtail-bench-'));
      const run = await runMeasured(
        new URL(import.meta.url).pathname,
        ['--child', mode, collector.url, String(events), String(users), dir],
        'mode',
      );
      rmSync(dir, { recursive: true, force: true });
      const stats = await collector.stats();
      const row = {
        ...run,
        lost: events - stats.received,
        duplicates: stats.duplicates,
        eventsPerSec: (stats.received / run.endToEndMs) * 1000,
      };
      results[mode].push(row);
      console.error(
        `round ${round + 1} ${mode}: ${Math.round(row.eventsPerSec)} ev/s, ${row.cpuUsPerEvent.toFixed(1)} CPU µs/ev, lost ${row.lost}`,
      );
    }
  }
  collector.close();

  const label = { memory: 'memory (default)', interval: "file, fsync 'interval' (100 ms)", always: "file, fsync 'always'" };
  const memoryRate = results.memory ? median(results.memory.map((r) => r.eventsPerSec)) : NaN;

  const command = `node bench/node-persistence.js --events ${events} --users ${users} --rounds ${rounds} --modes ${modes.join(',')}`;
  const lines = [
    `Command: \`${command}\` (median of ${rounds} rounds; ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)})`,
    '',
    '| queue | events/s end to end | vs memory | µs per capture() | CPU µs per event | peak RSS MB | journal KB at exit | lost | duplicates |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const mode of modes) {
    const m = (key) => median(results[mode].map((r) => r[key]));
    lines.push(
      `| ${label[mode] ?? mode} | ${Math.round(m('eventsPerSec')).toLocaleString('en-US')} | ${fmt(m('eventsPerSec') / memoryRate, 2)}× | ${fmt(m('captureUsPerCall'), 2)} | ${fmt(m('cpuUsPerEvent'))} | ${fmt(m('peakRssMb'), 0)} | ${fmt(m('journalKb'), 0)} | ${Math.round(m('lost'))} | ${Math.round(m('duplicates'))} |`,
    );
  }
  const table = lines.join('\n');
  console.log(table);

  if (process.argv.includes('--write')) writeBenchmarkSection('node-persistence', 'Node crash-safe queue', table);
}
