// What one browser test's page costs in Chromium's CPU (Linux only: it reads /proc), with the
// tests' launch arguments, so "npm test: where the CPU goes" can be read per context and per page.
//
//   node bench/chromium-page-cost.js [--rounds 20] [--write]
//
// Each step is repeated `--rounds` times and the CPU of every Chromium process (all threads, the
// processes that start and end during the step included, read every 50 ms) is summed over it.
import http from 'node:http';
import { arg } from './lib/args.js';
import { launchChromium } from './lib/chromium.js';
import { processes, TICKS_PER_SECOND } from './lib/proc.js';
import { writeBenchmarkSection } from './lib/write-section.js';

const rounds = Number(arg('rounds', '20'));

/** pid → { ticks, renderer }: the last reading of every Chromium process seen. */
const chromiumProcesses = new Map();

function sampleChromium() {
  for (const found of processes()) {
    if (!found.comm.includes('chrom')) continue;
    const renderer = chromiumProcesses.get(found.pid)?.renderer ?? found.cmdline().includes('--type=renderer');
    chromiumProcesses.set(found.pid, { ticks: found.ticks, renderer });
  }
}

const chromiumTicks = () => [...chromiumProcesses.values()].reduce((sum, entry) => sum + entry.ticks, 0);
const renderers = () => [...chromiumProcesses.values()].filter((entry) => entry.renderer).length;

/** Chromium's CPU seconds and new renderer processes per round of `step`, sampling every 50 ms meanwhile. */
async function measure(step) {
  sampleChromium();
  const [ticksBefore, renderersBefore] = [chromiumTicks(), renderers()];
  const sampler = setInterval(sampleChromium, 50);
  for (let round = 0; round < rounds; round++) await step(round);
  await new Promise((resolve) => setTimeout(resolve, 300)); // let closed pages' processes end and be read
  clearInterval(sampler);
  sampleChromium();
  return {
    cpuMs: ((chromiumTicks() - ticksBefore) / TICKS_PER_SECOND / rounds) * 1000,
    renderers: (renderers() - renderersBefore) / rounds,
  };
}

const server = http.createServer((request, response) => {
  response.writeHead(200, { 'content-type': 'text/html' });
  response.end('<!doctype html><title>page</title><button id="b">a button</button>');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}/`;

const browser = await launchChromium();
await new Promise((resolve) => setTimeout(resolve, 1500)); // past the browser's own start-up work
const shared = await browser.newContext();
const sharedPage = await shared.newPage();
await sharedPage.goto(url);

const steps = [
  [
    'a new context, one page, one navigation, closed (what most browser tests do per visit)',
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(url);
      await context.close();
    },
  ],
  [
    'a new page in an open context, one navigation, closed',
    async () => {
      const page = await shared.newPage();
      await page.goto(url);
      await page.close();
    },
  ],
  ['a navigation in an open page', async (round) => sharedPage.goto(`${url}?${round}`)],
  ['the browser idle with one open page, per second', async () => new Promise((resolve) => setTimeout(resolve, 1000))],
];
const results = [];
for (const [what, step] of steps) results.push([what, await measure(step)]);
await browser.close();
server.close();

const body = [
  `\`node bench/chromium-page-cost.js --rounds ${rounds}\` (${new Date().toISOString().slice(0, 10)}), ${browser.version()}, the browser tests' launch`,
  'arguments (scripts/lib/shared-chromium.js); CPU of all Chromium processes, per round, mean of the rounds.',
  '',
  '| step | Chromium CPU ms | new renderer processes |',
  '| --- | ---: | ---: |',
  ...results.map(([what, result]) => `| ${what} | ${result.cpuMs.toFixed(0)} | ${result.renderers.toFixed(1)} |`),
].join('\n');
console.log(body);
if (process.argv.includes('--write')) writeBenchmarkSection('chromium-page-cost', 'npm test: what a browser test page costs', body);
