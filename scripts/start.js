#!/usr/bin/env node
// `npm start`: the main job on a fresh machine, no account and no network. Uses the `hogtail dev`
// already running on 127.0.0.1:8010 (HOGTAIL_DEV_PORT), or starts it there with examples/flags.json
// and examples/surveys.json;
// runs examples/node-server against it with realistic traffic (identify, groups, page views, surveys,
// flag checks); serves the script-tag and SPA examples pointed at the same server; and prints the
// live page's URL and a summary of what arrived. It then keeps serving until Ctrl-C; `--once` (or
// CI=true) stops after the summary.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startDevServer } from '../dist/devserver/index.js';
import { serveScriptTag } from '../examples/script-tag/serve.js';
import { serveSpa } from '../examples/spa/serve.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const once = process.argv.includes('--once') || process.env.CI === 'true';
const dataDir = process.env.HOGTAIL_DEV_DATA ?? root + '.hogtail-dev';
const port = Number(process.env.HOGTAIL_DEV_PORT ?? 8010);

async function summaryAt(url) {
  try {
    const response = await fetch(`${url}/_dev/summary`);
    return response.ok ? await response.json() : undefined;
  } catch {
    return undefined;
  }
}

/** The `hogtail dev` on the port if one runs there, else a new one (on any free port if taken). */
async function useOrStartDev() {
  const existing = `http://127.0.0.1:${port}`;
  if (port !== 0 && (await summaryAt(existing)) !== undefined) {
    console.log(`hogtail dev: using the one already running at ${existing}`);
    return { url: existing, close: async () => {} };
  }
  const options = {
    dataDir,
    flagsFile: root + 'examples/flags.json',
    surveysFile: root + 'examples/surveys.json',
    log: (line) => console.log(`hogtail dev: ${line}`),
  };
  let dev;
  try {
    dev = await startDevServer({ ...options, port });
  } catch {
    dev = await startDevServer({ ...options, port: 0 }); // the port is taken by something else
  }
  console.log(`hogtail dev: listening on ${dev.url} (events kept in ${dataDir})`);
  return dev;
}

const dev = await useOrStartDev();
const before = (await summaryAt(dev.url)).events.total;

const code = await new Promise((resolve) => {
  const child = spawn(process.execPath, [root + 'examples/node-server/run.js'], {
    stdio: 'inherit',
    env: { ...process.env, HOGTAIL_HOST: dev.url },
  });
  child.on('exit', resolve);
});

const summary = await summaryAt(dev.url);
const [scriptTag, spa] = await Promise.all([serveScriptTag(dev.url), serveSpa(dev.url)]);
const arrived = summary.events.total - before;
console.log(
  `\nhogtail dev received ${arrived} events this run (${summary.events.total} shown in all), from ${summary.people} people and ${summary.groupsTotal} groups; ${summary.rejections.total} rejected requests.`,
);
console.log('  events in memory, by name:');
for (const [name, count] of Object.entries(summary.events.byName).sort((a, b) => b[1] - a[1])) {
  console.log(`  ${String(count).padStart(6)}  ${name}`);
}
for (const rejection of summary.rejections.byReason)
  console.log(`  rejected ${rejection.count}× (${rejection.status}): ${rejection.reason}`);
const variants = {};
for (const user of summary.flags.users) {
  const value = String(user.flags['checkout-button']);
  variants[value] = (variants[value] ?? 0) + 1;
}
console.log(
  `  flags: ${summary.flags.definitions.length} defined; checkout-button for the ${summary.flags.users.length} latest users: ${JSON.stringify(variants)}`,
);
console.log(`\n  Live events page:     ${dev.url}/`);
console.log(`  Script-tag example:   http://127.0.0.1:${scriptTag.address().port}/  (open it, click around, watch the live page)`);
console.log(`  SPA example:          http://127.0.0.1:${spa.address().port}/`);

const stop = async () => {
  scriptTag.close();
  spa.close();
  await dev.close();
};
const ok = code === 0 && arrived > 0;
if (once) {
  await stop();
  process.exit(ok ? 0 : 1);
}
console.log('\nPress Ctrl-C to stop.');
process.on('SIGINT', async () => {
  await stop();
  process.exit(0);
});
