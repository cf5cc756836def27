// Node feature flags against a real collector serving decide on 127.0.0.1.
import { afterEach, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog } from '../../src/node';

let collector: Collector | undefined;
const clients: PostHog[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(2000)));
  await collector?.close();
  collector = undefined;
});

const FLAGS = {
  featureFlags: { beta: true, off: false, checkout: 'variant-b' },
  featureFlagPayloads: { checkout: '{"color":"red"}', beta: 'plain' },
};

async function setup() {
  const decides: { distinctId: string; ip: unknown; groups: unknown }[] = [];
  collector = await createCollector({
    decide: (request, headers) => {
      decides.push({ distinctId: request.distinct_id, ip: headers['x-forwarded-for'], groups: request.groups });
      return { ...FLAGS } as never;
    },
  });
  // No lookup may time out: an event whose flags did not come in time leaves without them (by
  // design), and a lookup's deadline counts its wait behind the client's other requests, so a
  // thousand at once on a loaded machine outlasted the default 10 s. No test here tests the deadline.
  const client = new PostHog('phc_k', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0, requestTimeout: 10 * 60_000 });
  clients.push(client);
  return { collector, client, decides };
}

it('values, enabled, payloads (JSON-parsed), all flags; $feature_flag_called once per user, flag and value', async () => {
  const { collector, client, decides } = await setup();
  expect(await client.getFeatureFlag('checkout', 'u1')).toBe('variant-b');
  expect(await client.getFeatureFlag('checkout', 'u1')).toBe('variant-b');
  expect(await client.isFeatureEnabled('beta', 'u1')).toBe(true);
  expect(await client.isFeatureEnabled('off', 'u1')).toBe(false);
  expect(await client.isFeatureEnabled('missing', 'u1')).toBeUndefined();
  expect(await client.getFeatureFlag('beta', 'u1', { sendFeatureFlagEvents: false })).toBe(true);
  expect(await client.getFeatureFlagPayload('checkout', 'u1')).toEqual({ color: 'red' });
  expect(await client.getFeatureFlagPayload('checkout', 'u1', 'variant-a')).toBeUndefined();
  expect(await client.getFeatureFlagPayload('beta', 'u1')).toBe('plain');
  expect(await client.getAllFlags('u1')).toEqual(FLAGS.featureFlags);
  expect(await client.getAllFlagsAndPayloads('u1')).toEqual({
    featureFlags: FLAGS.featureFlags,
    featureFlagPayloads: { checkout: { color: 'red' }, beta: 'plain' },
  });
  await client.flush();
  const called = collector.events.filter((e) => e.event === '$feature_flag_called');
  expect(called.map((e) => [e.distinct_id, e.properties.$feature_flag, e.properties.$feature_flag_response])).toEqual([
    ['u1', 'checkout', 'variant-b'],
    ['u1', 'beta', true],
    ['u1', 'off', false],
    // A flag the server does not know is no `false` nobody assigned: left out, with posthog-node's reason.
    ['u1', 'missing', undefined],
  ]);
  expect(called[3]!.properties.$feature_flag_error).toBe('flag_missing');
  expect('$feature/missing' in called[3]!.properties).toBe(false);
  expect(called[0]!.properties['$feature/checkout']).toBe('variant-b');
  // The first lookup asked for its one flag (decide answered all of them, so beta and off were
  // known too); the unknown flag and getAllFlags each needed a request of their own.
  expect(decides).toHaveLength(3);
});

it('capture({ sendFeatureFlags }) tags $feature/<key> and $active_feature_flags, from one decide per user', async () => {
  const { collector, client, decides } = await setup();
  client.capture({ distinctId: 'u2', event: 'first', sendFeatureFlags: true, ip: '198.51.100.7', properties: { x: 1 } });
  client.capture({ distinctId: 'u2', event: 'second', sendFeatureFlags: true, ip: '198.51.100.7' });
  await client.flush();
  client.capture({ distinctId: 'u2', event: 'third', sendFeatureFlags: true, ip: '198.51.100.7' });
  client.capture({ distinctId: 'u2', event: 'plain' });
  await client.flush();
  const byName = Object.fromEntries(collector.events.map((e) => [e.event, e.properties]));
  for (const name of ['first', 'second', 'third']) {
    expect(byName[name]).toMatchObject({
      '$feature/beta': true,
      '$feature/off': false,
      '$feature/checkout': 'variant-b',
      $active_feature_flags: ['beta', 'checkout'],
    });
  }
  expect(byName.first!.x).toBe(1);
  expect('$feature/beta' in byName.plain!).toBe(false);
  expect(decides).toEqual([{ distinctId: 'u2', ip: '198.51.100.7', groups: {} }]);
});

it('10,000 captures with sendFeatureFlags over 1,000 users make one decide request per user', async () => {
  const { collector, client, decides } = await setup();
  for (let i = 0; i < 10_000; i++) client.capture({ distinctId: `user-${i % 1000}`, event: 'e', sendFeatureFlags: true });
  await client.flush();
  for (let i = 0; i < 10_000; i++) await client.getFeatureFlag('beta', `user-${i % 100}`, { sendFeatureFlagEvents: false });
  expect(collector.events.filter((e) => e.event === 'e')).toHaveLength(10_000);
  expect(collector.events.every((e) => e.properties['$feature/beta'] === true)).toBe(true);
  expect(decides).toHaveLength(1000);
  expect(client.decideRequests).toBe(1000);
});
