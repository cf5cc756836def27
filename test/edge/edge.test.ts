// hogtail/edge as a Worker or Edge runtime gets it: the BUILT file, run in a node:vm context that
// holds only web globals (fetch, streams, CompressionStream, Web Crypto, timers): no require, no
// process, no Buffer. It must load, capture, compress and deliver to a real collector on 127.0.0.1.
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { afterEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { ensureBuilt } from '../support/built';
import { createFlagsServer, type FlagsServer } from '../support/flags-server';
import { manyFlagsAnswer } from '../support/many-flags';
import { webGlobals } from '../support/web-globals';
import { PostHog as NodePostHog } from '../../src/node';
import { PERSONAL_KEY, startDefinitionsServer, type DefinitionsServer } from '../node/support/definitions-server';

let collector: Collector | undefined;
let flagsServer: FlagsServer | undefined;
let definitionsServer: DefinitionsServer | undefined;
const clients: Array<{ shutdown(ms?: number): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(0)));
  await collector?.close();
  await flagsServer?.close();
  await definitionsServer?.close();
  collector = flagsServer = definitionsServer = undefined;
});

function loadEdgeBuild(): { PostHog: new (key: string, options: Record<string, unknown>) => any } {
  const code = readFileSync(ensureBuilt('dist/edge/index.cjs'), 'utf8');
  const context = vm.createContext(webGlobals());
  const module = { exports: {} as Record<string, unknown> };
  // CommonJS without `require`: a single import of a Node built-in would throw here.
  vm.runInContext(`(function (module, exports) {${code}\n})`, context)(module, module.exports);
  return module.exports as never;
}

it('the built edge file names no Node built-in, and runs without one', () => {
  const code = readFileSync(ensureBuilt('dist/edge/index.cjs'), 'utf8');
  expect(code).not.toMatch(/require\(|\bprocess\.|\bBuffer\b|from ['"]node:/);
  const context = vm.createContext(webGlobals());
  expect(vm.runInContext('typeof require + typeof process + typeof Buffer', context)).toBe('undefinedundefinedundefined');
  expect(typeof loadEdgeBuild().PostHog).toBe('function');
});

it('captures, identifies and reads flags in that context, delivering gzip batches to the collector', async () => {
  collector = await createCollector({ decide: () => ({ featureFlags: { beta: true }, featureFlagPayloads: {} }) as never });
  const { PostHog } = loadEdgeBuild();
  const client = new PostHog('phc_edge', { host: collector.url, flushAt: 100 });
  const errors: unknown[] = [];
  client.on('error', (error: unknown) => errors.push(error));
  client.capture({ distinctId: 'u1', event: 'edge event', properties: { route: '/api' } });
  client.identify({ distinctId: 'u1', properties: { plan: 'pro' } });
  expect(await client.getFeatureFlag('beta', 'u1')).toBe(true);
  await client.shutdown(5000);
  expect(errors).toEqual([]);
  const events = collector.events.filter((e) => e.event !== '$feature_flag_called');
  expect(events.map((e) => e.event)).toEqual(['edge event', '$identify']);
  expect(events[0]!.properties).toMatchObject({ route: '/api', $lib: 'hogtail-edge', distinct_id: 'u1' });
});

it('a Node-only option is named once as unsupported, not silently ignored', () => {
  const { PostHog } = loadEdgeBuild();
  const warnings: string[] = [];
  const original = console.warn;
  console.warn = (message: string) => warnings.push(message);
  try {
    const client = new PostHog('phc_edge', { host: 'http://127.0.0.1:1', persistence: { type: 'file', path: '/tmp/x' } });
    void client.shutdown(0);
  } finally {
    console.warn = original;
  }
  expect(warnings).toEqual([expect.stringMatching(/persistence is not available in hogtail\/edge/)]);
});

it('reads all 400 flags of a 140 KB flags answer', async () => {
  const many = manyFlagsAnswer(400);
  flagsServer = await createFlagsServer(() => ({ body: many.body }));
  const { PostHog } = loadEdgeBuild();
  const client = new PostHog('phc_edge', { host: flagsServer.url, flushAt: 100 });
  clients.push(client);
  const errors: unknown[] = [];
  client.on('error', (error: unknown) => errors.push(error));
  expect(await client.getAllFlags('u1')).toEqual(many.values);
  expect(errors).toEqual([]);
});

const DEFINITIONS = {
  group_type_mapping: { '0': 'company' },
  flags: [
    { id: 1, key: 'half', active: true, filters: { groups: [{ properties: [], rollout_percentage: 50 }] } },
    {
      id: 2,
      key: 'checkout',
      active: true,
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', rollout_percentage: 50 },
          ],
        },
        payloads: { control: '{"price":10}', test: '{"price":9}' },
      },
    },
    {
      id: 3,
      key: 'pro-only',
      active: true,
      filters: { groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100 }] },
    },
    {
      id: 5,
      key: 'teams',
      active: true,
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 40 }] },
    },
  ],
};

it('evaluates flags locally with a personalApiKey (sha1 without node:crypto), as the Node client does, with no flags request', async () => {
  definitionsServer = await startDefinitionsServer(DEFINITIONS);
  definitionsServer.remote = () => ({ half: 'from-server' });
  const { PostHog } = loadEdgeBuild();
  const options = { host: definitionsServer.url, personalApiKey: PERSONAL_KEY, flushAt: 1000 };
  const edge = new PostHog('phc_project', options);
  const node = new NodePostHog('phc_project', { ...options, flushOnExitTimeout: 0 });
  clients.push(edge, node);
  const errors: unknown[] = [];
  edge.on('error', (error: unknown) => errors.push(error));
  expect(await edge.waitForLocalEvaluationReady(5000)).toBe(true);
  expect(await node.waitForLocalEvaluationReady(5000)).toBe(true);
  const [load] = definitionsServer.definitionRequests();
  expect(load).toMatchObject({ method: 'GET', url: '/flags/definitions?token=phc_project&send_cohorts', status: 200 });
  for (let i = 0; i < 100; i++) {
    const call = { personProperties: { plan: i % 2 ? 'pro' : 'free' }, groups: { company: `c${i % 13}` }, sendFeatureFlagEvents: false };
    expect(await edge.getAllFlagsAndPayloads(`id-${i}`, call), `id-${i}`).toEqual(await node.getAllFlagsAndPayloads(`id-${i}`, call));
  }
  expect(
    new Set(
      await Promise.all(Array.from({ length: 40 }, (_, i) => edge.getFeatureFlag('half', `id-${i}`, { sendFeatureFlagEvents: false }))),
    ),
  ).toEqual(new Set([true, false]));
  expect(definitionsServer.remoteRequests()).toEqual([]);
  expect(errors).toEqual([]);
});
