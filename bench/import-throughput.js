#!/usr/bin/env node
// `hogtail import` throughput: generate N rows, import them in a child process into the lean
// loopback collector (bench/collector-process.js, its own process, fresh per run), and report rows/s,
// CPU and peak RSS of the importer, plus what the collector received (lost / duplicate uuids).
//   node bench/import-throughput.js [--rows 1000000] [--formats ndjson,csv,ndjson.gz] [--rounds 1] [--args "--batch-size 2000"] [--write]
// --write puts the table into BENCHMARKS.md between the import-throughput markers.
// The commands are bundled from src/ here (rollup JS API) so the bench does not depend on the CLI wiring.
import { fork } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeBenchmarkSection } from './lib/write-section.js';
import { arg } from './lib/args.js';
import { once, startCollector } from './lib/processes.js';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once as onceEvent } from 'node:events';
import { createGzip } from 'node:zlib';
import { rollup } from 'rollup';
import typescript from '@rollup/plugin-typescript';

const rowCount = Number(arg('rows', 1_000_000));
const rounds = Number(arg('rounds', 1));
const formats = arg('formats', 'ndjson').split(',');
const extraArgs = arg('args', '').split(' ').filter(Boolean);
const repo = new URL('..', import.meta.url).pathname;
const work = mkdtempSync(join(tmpdir(), 'hogtail-import-bench-'));

// The child: runs the import, then reports its own peak RSS and CPU over IPC (exact, unlike sampling).
const WRAPPER = `
import { runImportCommand } from ${JSON.stringify(join(repo, 'src/cli/import-command.ts'))};
const started = performance.now();
const code = await runImportCommand(process.argv.slice(2), {
  env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, isTTY: false,
});
const usage = process.resourceUsage();
process.send({ code, ms: performance.now() - started, maxRssKb: usage.maxRSS, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000 }, () => process.exit(code));
`;

async function buildScript() {
  const entry = join(work, 'entry.mjs');
  writeFileSync(entry, WRAPPER);
  const bundle = await rollup({
    input: entry,
    external: (id) => id === 'fflate' || id.startsWith('fflate/') || id.startsWith('node:'),
    plugins: [
      typescript({
        tsconfig: join(repo, 'tsconfig.build.json'),
        declaration: false,
        declarationMap: false,
        declarationDir: work,
        outDir: work,
        rootDir: repo,
        include: [join(repo, 'src/**/*.ts')],
      }),
    ],
    onwarn: () => {},
  });
  const file = join(work, 'import.mjs');
  await bundle.write({ file, format: 'es' });
  await bundle.close();
  return file;
}

// Realistic rows: a few event names, 1,000 users, ~8 properties, one pageview in ten.
function* rows() {
  const names = ['signed up', 'viewed dashboard', 'clicked button', 'exported report'];
  const start = Date.UTC(2023, 0, 1);
  for (let i = 0; i < rowCount; i++) {
    const pageview = i % 10 === 0;
    yield {
      event: pageview ? '$pageview' : names[i % names.length],
      distinct_id: `user-${(i * 7919) % 1000}`,
      timestamp: new Date(start + i * 1000).toISOString(),
      properties: {
        $current_url: `https://app.example.com/page/${i % 50}`,
        plan: i % 3 === 0 ? 'pro' : 'free',
        browser: i % 2 ? 'Chrome' : 'Firefox',
        step: i % 17,
        amount: (i % 1000) / 10,
        beta: i % 5 === 0,
        country: ['DE', 'US', 'FR', 'JP'][i % 4],
      },
    };
  }
}

async function writeLines(file, lines, gzip) {
  const out = createWriteStream(file);
  const sink = gzip ? createGzip({ level: 6 }) : out;
  if (gzip) sink.pipe(out);
  for (const line of lines) if (!sink.write(line)) await onceEvent(sink, 'drain');
  sink.end();
  await onceEvent(out, 'close');
}

async function generate(format) {
  const gzip = format.endsWith('.gz');
  const base = format.replace(/\.gz$/, '');
  const file = join(work, `events.${format}`);
  if (base === 'csv') {
    const header = 'event,distinct_id,timestamp,$current_url,plan,browser,step,amount,beta,country\n';
    const lines = (function* () {
      yield header;
      for (const r of rows()) {
        const p = r.properties;
        yield `${r.event},${r.distinct_id},${r.timestamp},${p.$current_url},${p.plan},${p.browser},${p.step},${p.amount},${p.beta},${p.country}\n`;
      }
    })();
    await writeLines(file, lines, gzip);
  } else {
    const lines = (function* () {
      for (const r of rows()) yield JSON.stringify(r) + '\n';
    })();
    await writeLines(file, lines, gzip);
  }
  return file;
}

const script = await buildScript();
const results = [];
for (const format of formats) {
  const file = await generate(format);
  const runs = [];
  for (let round = 0; round < rounds; round++) {
    const collector = await startCollector();
    const args = [
      file,
      '--host',
      collector.url,
      '--api-key',
      'phc_bench',
      '--checkpoint',
      join(work, `cp-${format}-${round}.json`),
      ...extraArgs,
    ];
    const child = fork(script, args, { cwd: work, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const run = await once(child, (m) => m.code !== undefined);
    const stats = await collector.stats();
    collector.close();
    runs.push({ ...run, ...stats, rowsPerSec: (stats.received / run.ms) * 1000 });
    console.error(
      `${format} round ${round + 1}: ${Math.round((stats.received / run.ms) * 1000)} rows/s, peak RSS ${Math.round(run.maxRssKb / 1024)} MB, lost ${rowCount - stats.received}, duplicates ${stats.duplicates}`,
    );
  }
  runs.sort((a, b) => a.rowsPerSec - b.rowsPerSec);
  results.push({ format, size: statSync(file).size, ...runs[Math.floor(runs.length / 2)] });
  rmSync(file);
}
rmSync(work, { recursive: true, force: true });

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const command = `node bench/import-throughput.js --rows ${rowCount} --formats ${formats.join(',')} --rounds ${rounds}${extraArgs.length ? ` --args "${extraArgs.join(' ')}"` : ''}`;
const table = [
  `Command: \`${command}\` (median of ${rounds}; ${cpus().length} cores, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}; importer and collector share the machine)`,
  '',
  '| input | file MB | rows/s end to end | importer CPU µs per row | peak RSS MB | requests | wire bytes per row | lost | duplicates |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.map(
    (r) =>
      `| ${r.format} | ${(r.size / 1024 / 1024).toFixed(0)} | ${fmt(r.rowsPerSec)} | ${((r.cpuMs * 1000) / rowCount).toFixed(1)} | ${fmt(r.maxRssKb / 1024)} | ${fmt(r.requests)} | ${(r.wireBytes / Math.max(1, r.received)).toFixed(1)} | ${fmt(rowCount - r.received)} | ${fmt(r.duplicates)} |`,
  ),
].join('\n');
console.log(table);

if (process.argv.includes('--write')) {
  writeBenchmarkSection('import-throughput', 'hogtail import', table);
}
