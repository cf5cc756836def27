// Local flag evaluation in the Node client (personalApiKey) against a real server on 127.0.0.1:
// definitions polling with ETag, both definitions paths, 401, a change picked up by the next poll,
// the fall-back to the server for what cannot be decided locally, and agreement with posthog-node.
import { spawn } from 'node:child_process';
import { PostHog as PostHogNode } from 'posthog-node';
import { afterEach, expect, it } from 'vitest';
import { PostHog } from '../../src/node';
import { ensureBuilt } from '../support/built';
import { PERSONAL_KEY, startDefinitionsServer, type DefinitionsServer } from './support/definitions-server';

const DEFINITIONS = {
  group_type_mapping: { '0': 'company' },
  cohorts: { '5': { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] }] } },
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
      id: 4,
      key: 'pro-cohort',
      active: true,
      filters: { groups: [{ properties: [{ key: 'id', value: 5, type: 'cohort' }], rollout_percentage: 100 }] },
    },
    {
      id: 5,
      key: 'teams',
      active: true,
      filters: { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 40 }] },
    },
    {
      id: 8,
      key: 'experiment',
      active: true,
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: {
          variants: [
            { key: 'control', rollout_percentage: 50 },
            { key: 'test', rollout_percentage: 50 },
          ],
        },
        holdout: { id: 42, exclusion_percentage: 30 },
      },
    },
    {
      id: 9,
      key: 'per-device',
      active: true,
      bucketing_identifier: 'device_id',
      filters: { groups: [{ properties: [], rollout_percentage: 50 }] },
    },
    {
      id: 10,
      key: 'mixed',
      active: true,
      filters: {
        groups: [
          {
            properties: [{ key: 'size', operator: 'gt', value: 50, type: 'group', group_type_index: 0 }],
            rollout_percentage: 50,
            aggregation_group_type_index: 0,
          },
          { properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 100, aggregation_group_type_index: null },
        ],
      },
    },
    {
      id: 11,
      key: 'early',
      active: true,
      filters: {
        early_exit: true,
        groups: [
          { properties: [{ key: 'plan', value: 'pro', type: 'person' }], rollout_percentage: 30 },
          { properties: [], rollout_percentage: 100 },
        ],
      },
    },
    {
      id: 7,
      key: 'new-app',
      active: true,
      filters: {
        groups: [
          { properties: [{ key: 'app_version', operator: 'semver_caret', value: '2.1.0', type: 'person' }], rollout_percentage: 100 },
        ],
      },
    },
    {
      id: 6,
      key: 'needs-pro',
      active: true,
      filters: {
        groups: [
          {
            properties: [{ key: 'pro-only', type: 'flag', value: true, operator: 'flag_evaluates_to', dependency_chain: ['pro-only'] }],
            rollout_percentage: 100,
          },
        ],
      },
    },
  ],
};

let server: DefinitionsServer | undefined;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await server?.close();
  server = undefined;
});

async function setup(options: Record<string, unknown> = {}) {
  server = await startDefinitionsServer(DEFINITIONS);
  server.remote = () => ({ 'pro-only': 'from-server', half: 'from-server' });
  const errors: string[] = [];
  const client = new PostHog('phc_project', {
    host: server.url,
    personalApiKey: PERSONAL_KEY,
    flushAt: 1000,
    flushOnExitTimeout: 0,
    ...options,
  });
  client.on('error', (error) => errors.push(error.message));
  closers.push(() => client.shutdown(2000));
  return { server, client, errors };
}

it('loads the definitions with the personal key in the Authorization header only, and evaluates with no request per check', async () => {
  const { server, client, errors } = await setup();
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
  const [load] = server.definitionRequests();
  expect(load).toMatchObject({ method: 'GET', url: '/flags/definitions?token=phc_project&send_cohorts' });
  expect(load?.headers.authorization).toBe(`Bearer ${PERSONAL_KEY}`);

  expect(await client.getFeatureFlag('checkout', 'user-1')).toMatch(/^(control|test)$/);
  expect(await client.getFeatureFlag('pro-only', 'user-1', { personProperties: { plan: 'pro' } })).toBe(true);
  expect(await client.getFeatureFlag('pro-cohort', 'user-1', { personProperties: { plan: 'free' } })).toBe(false);
  expect(await client.getFeatureFlag('needs-pro', 'user-1', { personProperties: { plan: 'pro' } })).toBe(true);
  expect(await client.getFeatureFlag('teams', 'user-1')).toBe(false);
  const variant = await client.getFeatureFlag('checkout', 'user-2');
  expect(await client.getFeatureFlagPayload('checkout', 'user-2')).toEqual({ price: variant === 'test' ? 9 : 10 });
  expect(await client.isFeatureEnabled('pro-only', 'user-3', { personProperties: { plan: 'free' } })).toBe(false);
  const all = await client.getAllFlagsAndPayloads('user-2', {
    personProperties: { plan: 'pro', app_version: '2.3.1', $device_id: 'd-1' },
    groups: { company: 'acme' },
  });
  expect(Object.keys(all.featureFlags).sort()).toEqual([
    'checkout',
    'early',
    'experiment',
    'half',
    'mixed',
    'needs-pro',
    'new-app',
    'per-device',
    'pro-cohort',
    'pro-only',
    'teams',
  ]);
  expect(all.featureFlags['new-app']).toBe(true);
  expect(all.featureFlagPayloads).toEqual({ checkout: { price: variant === 'test' ? 9 : 10 } });

  expect(server.remoteRequests()).toEqual([]);
  client.capture({ distinctId: 'user-2', event: 'bought', sendFeatureFlags: true, properties: { plan: 'pro' } });
  await client.flush();
  const bought = server.events.find((event) => event.event === 'bought');
  expect(bought?.properties['$feature/checkout']).toBe(variant);
  const called = server.events.filter((event) => event.event === '$feature_flag_called');
  expect(called.length).toBeGreaterThan(0);
  expect(called.every((event) => event.properties.locally_evaluated === true)).toBe(true);
  expect(called.find((event) => event.properties.$feature_flag === 'pro-only')?.properties).toMatchObject({
    $feature_flag_response: true,
    $feature_flag_id: 3,
    $feature_flag_version: 1,
    $feature_flag_reason: 'Evaluated locally',
  });
  // The personal key is in no URL, event or reported message.
  const everything = JSON.stringify([server.requests.map((request) => request.url), server.events, errors]);
  expect(everything).not.toContain(PERSONAL_KEY);
  expect(errors).toEqual([]);
});

it('asks the server for what it cannot decide locally, unless onlyEvaluateLocally', async () => {
  const { server, client } = await setup();
  await client.waitForLocalEvaluationReady(5000);
  // No plan given: the condition on it is inconclusive, so the server decides.
  expect(await client.getFeatureFlag('pro-only', 'user-1')).toBe('from-server');
  expect(server.remoteRequests()).toHaveLength(1);
  expect(await client.getFeatureFlag('pro-only', 'user-9', { onlyEvaluateLocally: true })).toBeUndefined();
  expect(await client.getFeatureFlag('not-defined', 'user-9', { onlyEvaluateLocally: true })).toBeUndefined();
  expect(server.remoteRequests()).toHaveLength(1);
  await client.flush();
  const called = server.events.filter((event) => event.event === '$feature_flag_called' && event.distinct_id === 'user-1');
  expect(called.map((event) => event.properties.locally_evaluated)).toEqual([false]);
});

it('polls with If-None-Match, keeps what it has on 304, and picks up a change at the next poll', async () => {
  const { server, client } = await setup({ featureFlagsPollingInterval: 100 });
  await client.waitForLocalEvaluationReady(5000);
  await server.waitForDefinitionRequests(2);
  const [first, second] = server.definitionRequests();
  expect(first?.status).toBe(200);
  expect(second).toMatchObject({ status: 304 });
  expect(second?.headers['if-none-match']).toMatch(/^".+"$/);
  expect(await client.getFeatureFlag('pro-only', 'u', { personProperties: { plan: 'pro' } })).toBe(true);

  server.definitions = {
    ...DEFINITIONS,
    flags: DEFINITIONS.flags.map((flag) => (flag.key === 'pro-only' ? { ...flag, active: false } : flag)),
  };
  const seen = server.definitionRequests().length;
  // The poll after the changed one starts only once the change has been applied.
  await server.waitForDefinitionRequests(seen + 2);
  expect(server.definitionRequests()[seen]?.status).toBe(200);
  expect(await client.getFeatureFlag('pro-only', 'u', { personProperties: { plan: 'pro' } })).toBe(false);
});

it('uses the older local_evaluation path when /flags/definitions answers 404', async () => {
  server = await startDefinitionsServer(DEFINITIONS);
  server.onlyOldPath = true;
  const client = new PostHog('phc_project', { host: server.url, personalApiKey: PERSONAL_KEY, flushOnExitTimeout: 0 });
  closers.push(() => client.shutdown(2000));
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(true);
  expect(server.definitionRequests().map((request) => [request.url, request.status])).toEqual([
    ['/flags/definitions?token=phc_project&send_cohorts', 404],
    ['/api/feature_flag/local_evaluation/?token=phc_project&send_cohorts', 200],
  ]);
  await client.reloadFeatureFlags();
  expect(server.definitionRequests().at(-1)?.url).toBe('/api/feature_flag/local_evaluation/?token=phc_project&send_cohorts');
});

it('reports a refused personal key once, with what to check, and keeps evaluating on the server', async () => {
  const { server, client, errors } = await setup({ featureFlagsPollingInterval: 100 });
  server.forceStatus = 401;
  await client.reloadFeatureFlags();
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(false);
  await server.waitForDefinitionRequests(3);
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/refused the personal API key .*401.*Check that personalApiKey is a personal API key/);
  expect(errors[0]).not.toContain(PERSONAL_KEY);
  expect(await client.getFeatureFlag('half', 'user-1')).toBe('from-server');
});

it('gives the values posthog-node gives with the same personal key and definitions', async () => {
  const { server, client } = await setup();
  const peer = new PostHogNode('phc_project', { host: server.url, personalApiKey: PERSONAL_KEY, flushAt: 1000, fetchRetryCount: 0 });
  closers.push(() => peer.shutdown());
  await client.waitForLocalEvaluationReady(5000);
  expect(await peer.waitForLocalEvaluationReady(5000)).toBe(true);
  const before = server.remoteRequests().length;
  for (let i = 0; i < 200; i++) {
    const personProperties = {
      plan: i % 3 === 0 ? 'pro' : 'free',
      app_version: `${1 + (i % 3)}.${i % 5}.0`,
      $device_id: `device-${i % 23}`,
    };
    const groupProperties = { company: { size: (i * 7) % 100 } };
    const call = {
      personProperties,
      groups: { company: `c${i % 17}` },
      groupProperties,
      sendFeatureFlagEvents: false,
      onlyEvaluateLocally: true,
    };
    for (const key of [
      'half',
      'checkout',
      'pro-only',
      'pro-cohort',
      'teams',
      'needs-pro',
      'new-app',
      'experiment',
      'per-device',
      'mixed',
      'early',
    ]) {
      expect(await client.getFeatureFlag(key, `id-${i}`, call), `${key} for id-${i}`).toBe(await peer.getFeatureFlag(key, `id-${i}`, call));
    }
  }
  expect(server.remoteRequests().length).toBe(before);
  // The holdout really holds some ids out (about 30%), so the comparison above covered it.
  const held = await Promise.all(
    Array.from({ length: 200 }, (_, i) => client.getFeatureFlag('experiment', `id-${i}`, { sendFeatureFlagEvents: false })),
  );
  expect(held.filter((value) => value === 'holdout-42').length).toBeGreaterThan(20);
});

it('a script with local evaluation exits by itself: the polling timer never keeps the process alive', async () => {
  server = await startDefinitionsServer(DEFINITIONS);
  const entry = ensureBuilt();
  const script = `import { PostHog } from ${JSON.stringify(entry)};
    const client = new PostHog('phc_project', { host: ${JSON.stringify(server.url)}, personalApiKey: ${JSON.stringify(PERSONAL_KEY)}, featureFlagsPollingInterval: 60000, flushOnExitTimeout: 0 });
    console.log(await client.waitForLocalEvaluationReady(5000), await client.getFeatureFlag('pro-only', 'u', { personProperties: { plan: 'pro' }, sendFeatureFlagEvents: false }));`;
  const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script]);
    // Only so a failing run leaves no process behind: a child still alive here has already failed.
    const reaper = setTimeout(() => child.kill('SIGKILL'), 25_000);
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(reaper);
      resolve({ code, stdout });
    });
  });
  expect(result).toEqual({ code: 0, stdout: 'true true\n' });
}, 30_000);

it('retries a failed load with backoff, sooner than the polling interval, and reports the trouble once', async () => {
  const { server, client, errors } = await setup({ featureFlagsPollingInterval: 60_000 });
  server.forceStatus = 503;
  expect(await client.waitForLocalEvaluationReady(5000)).toBe(false);
  await server.waitForDefinitionRequests(2);
  server.forceStatus = undefined;
  // Only the backoff can bring a third request within the test: the interval is a minute.
  await server.waitForDefinitionRequests(3);
  while (!client.isLocalEvaluationReady()) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(server.definitionRequests().map((request) => request.status)).toEqual([503, 503, 200]);
  expect(errors).toEqual([expect.stringMatching(/could not be loaded .*status 503.*retrying with backoff/)]);
  expect(await client.getFeatureFlag('pro-only', 'u', { personProperties: { plan: 'pro' }, sendFeatureFlagEvents: false })).toBe(true);
});
