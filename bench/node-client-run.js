// One measured run of one SDK in a fresh process: capture N events over U users with ~10 properties,
// then wait until the SDK says everything is delivered. Reports to the parent over IPC.
import { createRequire } from 'node:module';
import { measureCaptureRun } from './lib/workload.js';

const [sdk, url, countArg, usersArg] = process.argv.slice(2);
const count = Number(countArg);
const users = Number(usersArg);

async function makeClient() {
  if (sdk.startsWith('hogtail')) {
    const { PostHog } = await import('../dist/node/index.js');
    const options = { host: url, flushOnExitTimeout: 0 };
    if (sdk === 'hogtail-fflate') {
      const { gzipSync, strToU8 } = createRequire(import.meta.url)('fflate');
      options.compressor = (body) => gzipSync(strToU8(body), { level: 6, mem: 8 });
    }
    return new PostHog('phc_bench', options);
  }
  const { PostHog } = await import('posthog-node');
  // 'posthog-node' runs with its defaults (what users get); 'posthog-node-tuned' is given room for the
  // whole burst and big batches, the most favourable settings we found for it.
  const tuned = sdk === 'posthog-node-tuned' ? { maxQueueSize: count * 2, flushAt: 1000, maxBatchSize: 1000 } : {};
  return new PostHog('phc_bench', { host: url, ...tuned });
}

const client = await makeClient();
let errors = 0;
client.on?.('error', () => errors++);

const measured = await measureCaptureRun(client, { count, users, shutdownMs: 120_000 });

process.send(
  {
    sdk,
    ...measured,
    errors,
  },
  () => process.exit(0),
);
