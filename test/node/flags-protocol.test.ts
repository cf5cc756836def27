// Feature flags on today's wire, against a real server on 127.0.0.1 that scripts every flags answer:
// the /flags/?v=2 request body, both answer shapes, the fall-back to decide on 404/405, retries of
// transient failures, and $feature_flag_called. posthog-node runs the same scenarios where it can.
import { PostHog as PeerPostHog } from 'posthog-node';
import { afterEach, describe, expect, it } from 'vitest';
import { PostHog, type HogtailError } from '../../src/node';
import { createFlagsServer, type FlagsScript, type FlagsServer } from '../support/flags-server';
import { manyFlagsAnswer } from '../support/many-flags';

let server: FlagsServer | undefined;
const clients: { shutdown(ms?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(1000)));
  await server?.close();
  server = undefined;
});

const V2 = {
  flags: {
    beta: { key: 'beta', enabled: true, variant: null, metadata: { id: 1, version: 1, payload: null } },
    checkout: { key: 'checkout', enabled: true, variant: 'red', metadata: { id: 2, version: 3, payload: '{"color":"red"}' } },
    off: { key: 'off', enabled: false, variant: null, metadata: { id: 3, version: 1, payload: null } },
  },
  errorsWhileComputingFlags: false,
  requestId: 'req-42',
};
const LEGACY = { featureFlags: { beta: true, checkout: 'red', off: false }, featureFlagPayloads: { checkout: '{"color":"red"}' } };

async function setup(script: FlagsScript, options: ConstructorParameters<typeof PostHog>[1] = {}) {
  server = await createFlagsServer(script);
  const client = new PostHog('phc_k', { host: server.url, flushAt: 1000, flushOnExitTimeout: 0, retry: { initialDelayMs: 5 }, ...options });
  const errors: HogtailError[] = [];
  client.on('error', (error) => errors.push(error));
  clients.push(client);
  return { server, client, errors };
}

describe('the request', () => {
  it('is POST /flags/?v=2 with token, distinct_id, the override objects (even empty), geoip_disable, and the one flag asked for', async () => {
    const { server, client } = await setup(() => ({ body: V2 }));
    await client.getFeatureFlag('beta', 'u1');
    await client.getAllFlags('u2', { groups: { company: 'acme' }, personProperties: { plan: 'pro' }, disableGeoip: false });
    expect(server.calls.map((call) => `${call.path}?${call.query}`)).toEqual(['/flags/?v=2', '/flags/?v=2']);
    expect(server.calls[0]!.body).toEqual({
      token: 'phc_k',
      distinct_id: 'u1',
      groups: {},
      person_properties: {},
      group_properties: {},
      geoip_disable: true,
      flag_keys_to_evaluate: ['beta'],
    });
    expect(server.calls[1]!.body).toEqual({
      token: 'phc_k',
      distinct_id: 'u2',
      groups: { company: 'acme' },
      person_properties: { plan: 'pro' },
      // Each group's key as `$group_key`, as posthog-node sends it.
      group_properties: { company: { $group_key: 'acme' } },
      geoip_disable: false,
    });
  });

  it('carries the same fields posthog-node 5 sends for the same lookup', async () => {
    const { server, client } = await setup(() => ({ body: V2 }));
    await client.getFeatureFlag('beta', 'u1', { groups: { company: 'acme' }, personProperties: { plan: 'pro' } });
    const peer = new PeerPostHog('phc_k', { host: server.url, flushAt: 1000 });
    clients.push(peer);
    await peer.getFeatureFlag('beta', 'u1', { groups: { company: 'acme' }, personProperties: { plan: 'pro' } });
    const [ours, theirs] = server.calls;
    expect(theirs!.path).toBe(ours!.path);
    expect(theirs!.query).toBe(ours!.query);
    for (const field of Object.keys(ours!.body)) expect([field, theirs!.body[field]]).toEqual([field, ours!.body[field]]);
  });
});

describe('the answer', () => {
  it.each([
    ['v2 (flags with enabled, variant, metadata.payload)', V2],
    ['legacy (featureFlags, featureFlagPayloads)', LEGACY],
  ])('%s gives values, payloads and all flags', async (_name, body) => {
    const { client } = await setup(() => ({ body }));
    expect(await client.getFeatureFlag('checkout', 'u1')).toBe('red');
    expect(await client.isFeatureEnabled('beta', 'u1')).toBe(true);
    expect(await client.isFeatureEnabled('off', 'u1')).toBe(false);
    expect(await client.getFeatureFlagPayload('checkout', 'u1')).toEqual({ color: 'red' });
    expect(await client.getAllFlags('u1')).toEqual({ beta: true, checkout: 'red', off: false });
  });

  it('$feature_flag_called carries $feature_flag, $feature_flag_response and $feature_flag_request_id', async () => {
    const { server, client } = await setup(() => ({ body: V2 }));
    await client.getFeatureFlag('checkout', 'u1');
    await client.flush();
    const [called] = server.collector.events.filter((e) => e.event === '$feature_flag_called');
    expect(called!.properties).toMatchObject({
      $feature_flag: 'checkout',
      $feature_flag_response: 'red',
      '$feature/checkout': 'red',
      $feature_flag_request_id: 'req-42',
    });
  });
});

describe('an older server', () => {
  it.each([404, 405])('/flags answering %i sends this and every later lookup to /decide/?v=3', async (status) => {
    const { server, client, errors } = await setup((call) => (call.path === '/flags/' ? { status, body: 'Not Found' } : { body: LEGACY }));
    expect(await client.getFeatureFlag('checkout', 'u1')).toBe('red');
    expect(await client.getAllFlags('u2')).toEqual(LEGACY.featureFlags);
    expect(server.calls.map((call) => `${call.path}?${call.query}`)).toEqual(['/flags/?v=2', '/decide/?v=3', '/decide/?v=3']);
    expect(errors).toEqual([]);
  });
});

describe('failures', () => {
  it.each([502, 504, 503, 429, 408])('a %i is retried, and the value arrives', async (status) => {
    const { server, client } = await setup((_call, index) =>
      index < 2 ? { status, body: 'busy', headers: { 'Retry-After': '0' } } : { body: V2 },
    );
    expect(await client.getFeatureFlag('checkout', 'u1')).toBe('red');
    expect(server.calls).toHaveLength(3);
  });

  it('gives up after 2 retries; the value is undefined and $feature_flag_called does not record it as false', async () => {
    const { server, client, errors } = await setup(() => ({ status: 500, body: 'down' }));
    expect(await client.getFeatureFlag('checkout', 'u1')).toBeUndefined();
    expect(server.calls).toHaveLength(3);
    await client.flush();
    const [called] = server.collector.events.filter((e) => e.event === '$feature_flag_called');
    expect(called!.properties.$feature_flag).toBe('checkout');
    expect('$feature_flag_response' in called!.properties).toBe(false);
    expect('$feature/checkout' in called!.properties).toBe(false);
    expect(called!.properties.$feature_flag_error).toBe('unknown_error');
    expect(errors.map((e) => e.message).join('\n')).toMatch(/\/flags\/\?v=2 answered 500.*after 2 retries/);
  });

  it('a 400 is not retried', async () => {
    const { server, client } = await setup(() => ({ status: 400, body: 'bad request' }));
    expect(await client.getFeatureFlag('checkout', 'u1')).toBeUndefined();
    expect(server.calls).toHaveLength(1);
  });

  it('posthog-node, against the same 404, has no value either (hogtail falls back and has one)', async () => {
    const { server, client } = await setup((call) => (call.path === '/flags/' ? { status: 404, body: 'Not Found' } : { body: LEGACY }));
    const peer = new PeerPostHog('phc_k', { host: server.url, flushAt: 1000 });
    clients.push(peer);
    expect(await peer.getFeatureFlag('checkout', 'u1')).toBeUndefined();
    expect(await client.getFeatureFlag('checkout', 'u1')).toBe('red');
  });
});

describe("posthog-node's lookup options", () => {
  it('flagKeys asks for those flags only and answers only them', async () => {
    const { server, client } = await setup(() => ({ body: V2 }));
    expect(await client.getAllFlags('u1', { flagKeys: ['beta', 'off'] })).toEqual({ beta: true, off: false });
    expect(server.calls[0]!.body.flag_keys_to_evaluate).toEqual(['beta', 'off']);
  });

  it('onlyEvaluateLocally without a personalApiKey answers undefined without a request, and says why once', async () => {
    const { server, client, errors } = await setup(() => ({ body: V2 }));
    expect(await client.getFeatureFlag('beta', 'u1', { onlyEvaluateLocally: true })).toBeUndefined();
    expect(await client.getAllFlags('u1', { onlyEvaluateLocally: true })).toEqual({});
    expect(server.calls).toEqual([]);
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/onlyEvaluateLocally needs local evaluation \(the personalApiKey option\)/),
    ]);
  });
});

describe('the per-user cache', () => {
  it('flagsCacheTtl: 0 asks the server on every lookup', async () => {
    const { server, client } = await setup(() => ({ body: V2 }), { flagsCacheTtl: 0 });
    await client.getAllFlags('u1');
    await client.getAllFlags('u1');
    await client.getFeatureFlag('beta', 'u1', { sendFeatureFlagEvents: false });
    expect(server.calls).toHaveLength(3);
  });

  it('by default one answer for all flags serves every later lookup of that user', async () => {
    const { server, client } = await setup(() => ({ body: V2 }));
    await client.getAllFlags('u1');
    await client.getFeatureFlag('beta', 'u1', { sendFeatureFlagEvents: false });
    await client.getFeatureFlagPayload('checkout', 'u1');
    expect(server.calls).toHaveLength(1);
  });
});

describe('a project with many flags', () => {
  it('reads all 400 flags of a 140 KB answer (each request kind has its own response cap)', async () => {
    const many = manyFlagsAnswer(400);
    expect(many.body.length).toBeGreaterThan(2 * 64 * 1024);
    const { client, errors } = await setup(() => ({ body: many.body }));
    expect(await client.getAllFlags('u1')).toEqual(many.values);
    expect(errors).toEqual([]);
  });
});
