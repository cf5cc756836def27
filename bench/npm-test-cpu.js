// Where `npm test`'s CPU goes, by process kind (Linux only: it reads /proc).
//
//   node bench/npm-test-cpu.js [--write] [--interval 200]
//
// Runs `CI=true npm test` in this tree and samples every process's CPU time (/proc/<pid>/stat, all
// threads) every `--interval` ms, keeping each process's last reading, and the machine's busy time
// (/proc/stat). It also prints what `/usr/bin/time` would report: the CPU of the processes npm test
// waited for. That figure leaves out Chromium's renderers (forked by its zygote, never waited for by
// our processes), which is why earlier rows of "npm test: wall time" read 420–460 s of CPU for runs
// that kept both cores busy throughout. A process that lives under one interval is missed; the
// machine's busy time has no such gap, and the difference is printed as "not attributed".
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { arg } from './lib/args.js';
import { machineBusyTicks, processes, TICKS_PER_SECOND } from './lib/proc.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const intervalMs = Number(arg('interval', '200'));

/** [pattern on the command line, kind]; the first match names the process. */
const NODE_KINDS = [
  [/vitest.*(forks|worker)/, 'vitest test processes (the tests, the servers and SDKs they run)'],
  [/vitest/, 'vitest main processes'],
  [/scripts\/test\.js/, 'npm test runner (and the shared browser’s Playwright server)'],
  [/rollup|scripts\/build\.js|declarations|clean-pack/, 'build'],
  [/typescript|tsc|typecheck/, 'typecheck (and the package test’s tsc)'],
  [/eslint/, 'lint'],
  [/publint|attw/, 'exports'],
  [/check-\w+-size|check-size/, 'size'],
];

function kindOf(comm, cmdline) {
  if (/chrom/.test(comm) || cmdline.includes('/chromium')) {
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser';
    return `Chromium ${type}`;
  }
  if (comm === 'node' || comm.startsWith('node')) {
    for (const [pattern, kind] of NODE_KINDS) if (pattern.test(cmdline)) return kind;
    return 'other Node processes (CLI children, collectors, npm)';
  }
  return comm;
}

/** pid+start time → { kind, ticks }: the last reading of every process seen. */
const seen = new Map();

function sample() {
  for (const { pid, comm, startTime, ticks, cmdline } of processes()) {
    const key = `${pid}:${startTime}`;
    let entry = seen.get(key);
    if (entry === undefined) {
      const kind = pid === String(process.pid) ? 'this sampler' : kindOf(comm, cmdline());
      seen.set(key, (entry = { kind, ticks, first: ticks }));
    }
    entry.ticks = ticks;
  }
}

/** CPU the processes waited for by this one used: what /usr/bin/time would print for the child. */
function waitedForTicks() {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[13]) + Number(fields[14]); // cutime + cstime
}

async function idleTicksPerSecond() {
  const before = machineBusyTicks();
  await new Promise((resolve) => setTimeout(resolve, 5000));
  return (machineBusyTicks() - before) / 5;
}

const idlePerSecond = await idleTicksPerSecond();
sample();
const preexisting = new Set(seen.keys());
const busyBefore = machineBusyTicks();
const started = performance.now();
const child = spawn('npm', ['test'], { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
let output = '';
child.stdout.on('data', (chunk) => (output += chunk));
child.stderr.on('data', (chunk) => (output += chunk));
const timer = setInterval(sample, intervalMs);
const code = await new Promise((resolve) => child.on('close', resolve));
clearInterval(timer);
sample();
const wallSeconds = (performance.now() - started) / 1000;
const busySeconds = (machineBusyTicks() - busyBefore) / TICKS_PER_SECOND;
const backgroundSeconds = (idlePerSecond * wallSeconds) / TICKS_PER_SECOND;

const byKind = new Map();
for (const [key, entry] of seen) {
  const ticks = preexisting.has(key) ? entry.ticks - entry.first : entry.ticks;
  if (ticks <= 0 && preexisting.has(key)) continue;
  const row = byKind.get(entry.kind) ?? { processes: 0, seconds: 0 };
  row.processes += preexisting.has(key) ? 0 : 1;
  row.seconds += ticks / TICKS_PER_SECOND;
  byKind.set(entry.kind, row);
}
const rows = [...byKind].filter(([, row]) => row.seconds >= 0.5).sort((a, b) => b[1].seconds - a[1].seconds);
const attributed = rows.reduce((sum, [, row]) => sum + row.seconds, 0);
const chromium = rows.filter(([kind]) => kind.startsWith('Chromium')).reduce((sum, [, row]) => sum + row.seconds, 0);
const summary = /^Tests: .*$/m.exec(output)?.[0] ?? 'no "Tests:" line';
const s = (value) => value.toFixed(1);

const body = [
  `\`node bench/npm-test-cpu.js\` (${new Date().toISOString().slice(0, 10)}), \`CI=true npm test\` in this tree, sampled every ${intervalMs} ms;`,
  `exit code ${code}; ${summary}.`,
  '',
  '| what | CPU s |',
  '| --- | ---: |',
  `| wall time | ${s(wallSeconds)} |`,
  `| machine busy time over the run (both cores: at most ${s(2 * wallSeconds)}), less the ${s(backgroundSeconds)} s the idle machine used in as long | ${s(busySeconds - backgroundSeconds)} |`,
  `| what \`/usr/bin/time npm test\` would report (the processes npm test waited for) | ${s(waitedForTicks() / TICKS_PER_SECOND)} |`,
  `| Chromium, all its processes | ${s(chromium)} |`,
  '',
  '| process kind | processes | CPU s | share of attributed |',
  '| --- | ---: | ---: | ---: |',
  ...rows.map(([kind, row]) => `| ${kind} | ${row.processes} | ${s(row.seconds)} | ${((100 * row.seconds) / attributed).toFixed(0)} % |`),
  `| not attributed (processes shorter than one sample, kernel work) | | ${s(Math.max(0, busySeconds - backgroundSeconds - attributed))} | |`,
].join('\n');
console.log(body);
if (code !== 0) console.log(output.slice(-4000));
if (process.argv.includes('--write')) writeBenchmarkSection('npm-test-cpu', 'npm test: where the CPU goes', body);
