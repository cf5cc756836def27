// `hogtail dev` speaks today's flag protocol: POST /flags/?v=2 from the same evaluation as /decide,
// and the two local-evaluation definitions paths behind a personal key. posthog-node (remote and
// local evaluation) and hogtail's Node client, pointed at it, see the same values.
import { PostHog as PostHogNode } from 'posthog-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, defaultDecideResponse, type Collector, type DevServer } from '../../src/devserver';
import { createFlagsDecide } from '../../src/devserver/flags';
import { DEV_PERSONAL_API_KEY } from '../../src/devserver/management/auth';
import { PostHog } from '../../src/node';
import { devHarness } from './dev-support';
import { KEY, postJson } from './helpers';

const FLAGS = {
  group_type_mapping: { '0': 'company' },
  cohorts: { '3': { type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person' }] } },
  flags: [
    { id: 11, version: 4, key: 'half', rollout_percentage: 50 },
    {
      id: 12,
      key: 'checkout',
      rollout_percentage: 100,
      variants: [
        { key: 'control', rollout_percentage: 50 },
        { key: 'test', rollout_percentage: 50 },
      ],
      payloads: { control: { price: 10 }, test: '{"price":9}' },
    },
    { id: 13, key: 'pro-only', properties: [{ key: 'plan', value: 'pro' }] },
    { id: 14, key: 'pro-cohort', properties: [{ key: 'id', type: 'cohort', value: 3 }] },
    { id: 15, key: 'teams', group_type: 'company', rollout_percentage: 40 },
    { id: 16, key: 'gone', deleted: true },
  ],
};
const KEYS = ['half', 'checkout', 'pro-only', 'pro-cohort', 'teams'];

const harness = devHarness();
let collector: Collector | undefined;
const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  await collector?.close();
  collector = undefined;
  await harness.cleanup();
});

async function devServer(): Promise<DevServer> {
  return (await harness.start({ dataDir: harness.tempDir(), flags: FLAGS })).server;
}

describe('POST /flags/?v=2', () => {
  it('answers the v2 shape with id, version, reason and payload, agreeing with /decide', async () => {
    collector = await createCollector({ decide: createFlagsDecide({ definitions: FLAGS }) });
    const body = { token: KEY, distinct_id: 'distinct_id_1', person_properties: { plan: 'pro' }, groups: { company: 'acme' } };
    for (const path of ['/flags/?v=2', '/flags?v=2']) {
      const reply = await postJson(`${collector.url}${path}`, body);
      expect(reply.status).toBe(200);
      const answer = JSON.parse(reply.text) as {
        flags: Record<string, unknown>;
        featureFlags: Record<string, unknown>;
        featureFlagPayloads: Record<string, unknown>;
        requestId: string;
      };
      const decide = JSON.parse((await postJson(`${collector.url}/decide/?v=3`, body)).text) as {
        featureFlags: Record<string, unknown>;
        flags?: unknown;
      };
      expect(decide.flags).toBeUndefined();
      expect(answer.featureFlags).toEqual(decide.featureFlags);
      expect(Object.keys(answer.flags).sort()).toEqual([...KEYS].sort());
      expect(answer.flags['half']).toEqual({
        key: 'half',
        enabled: decide.featureFlags['half'],
        variant: null,
        reason: decide.featureFlags['half']
          ? { code: 'condition_match', condition_index: 0, description: 'Matched condition set 1' }
          : { code: 'out_of_rollout_bound', condition_index: 0, description: 'Out of rollout bound' },
        metadata: { id: 11, version: 4, payload: null, description: null },
      });
      const variant = decide.featureFlags['checkout'];
      expect(answer.flags['checkout']).toMatchObject({
        enabled: true,
        variant,
        metadata: { id: 12, payload: variant === 'test' ? '{"price":9}' : '{"price":10}' },
      });
      expect(answer.featureFlagPayloads['checkout']).toBe(variant === 'test' ? '{"price":9}' : '{"price":10}');
      expect(answer.flags['pro-cohort']).toMatchObject({ enabled: true });
      expect(answer.requestId).toMatch(/^hogtail-dev-/);
    }
  });

  it('evaluates only flag_keys_to_evaluate when given, and derives details from any decide handler', async () => {
    collector = await createCollector({ decide: createFlagsDecide({ definitions: FLAGS }) });
    const only = JSON.parse(
      (await postJson(`${collector.url}/flags/?v=2`, { token: KEY, distinct_id: 'u', flag_keys_to_evaluate: ['pro-only'] })).text,
    );
    expect(Object.keys(only.flags)).toEqual(['pro-only']);
    await collector.close();
    collector = await createCollector({
      decide: () => ({ ...defaultDecideResponse(), featureFlags: { beta: 'b', off: false }, featureFlagPayloads: { beta: '1' } }),
    });
    const derived = JSON.parse((await postJson(`${collector.url}/flags/?v=2`, { token: KEY, distinct_id: 'u' })).text);
    expect(derived.flags).toEqual({
      beta: {
        key: 'beta',
        enabled: true,
        variant: 'b',
        reason: expect.objectContaining({ code: 'condition_match' }),
        metadata: { id: 0, version: 1, payload: '1', description: null },
      },
      off: {
        key: 'off',
        enabled: false,
        variant: null,
        reason: expect.objectContaining({ code: 'no_condition_match' }),
        metadata: { id: 0, version: 1, payload: null, description: null },
      },
    });
  });
});

describe('definitions for local evaluation', () => {
  const get = (server: DevServer, path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });

  it('needs a known personal key, answers both paths with an ETag and 304 when unchanged', async () => {
    const server = await devServer();
    const path = '/flags/definitions?token=phc_x&send_cohorts';
    expect((await get(server, path)).status).toBe(401);
    const wrong = await get(server, path, { Authorization: 'Bearer phx_not_this_one' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toMatch(/phx_hogtail_dev_personal_key/);
    expect((await get(server, '/flags/definitions?send_cohorts', { Authorization: `Bearer ${DEV_PERSONAL_API_KEY}` })).status).toBe(400);

    const auth = { Authorization: `Bearer ${DEV_PERSONAL_API_KEY}` };
    for (const candidate of [path, '/api/feature_flag/local_evaluation/?token=phc_x&send_cohorts']) {
      const reply = await get(server, candidate, auth);
      expect(reply.status).toBe(200);
      const etag = reply.headers.get('etag');
      const body = (await reply.json()) as {
        flags: Array<{ key: string; filters: { payloads: Record<string, unknown> } }>;
        group_type_mapping: unknown;
        cohorts: unknown;
      };
      expect(body.flags.map((flag) => flag.key)).toEqual(KEYS);
      expect(body.flags[1]?.filters.payloads).toEqual({ control: '{"price":10}', test: '{"price":9}' });
      expect(body.group_type_mapping).toEqual({ '0': 'company' });
      expect(body.cohorts).toEqual({ '3': { type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person', operator: 'exact' }] } });
      const again = await get(server, candidate, { ...auth, 'If-None-Match': etag ?? '' });
      expect(again.status).toBe(304);
    }
  });
});

describe('peers pointed at hogtail dev', () => {
  it('posthog-node (remote and local evaluation) and hogtail see the same flag values', async () => {
    const server = await devServer();
    const hogtail = new PostHog(KEY, { host: server.url, flushOnExitTimeout: 0 });
    const hogtailLocal = new PostHog(KEY, { host: server.url, personalApiKey: DEV_PERSONAL_API_KEY, flushOnExitTimeout: 0 });
    const remotePeer = new PostHogNode(KEY, { host: server.url, fetchRetryCount: 0 });
    const localPeer = new PostHogNode(KEY, { host: server.url, personalApiKey: DEV_PERSONAL_API_KEY, fetchRetryCount: 0 });
    closers.push(
      () => hogtail.shutdown(2000),
      () => hogtailLocal.shutdown(2000),
      () => remotePeer.shutdown(),
      () => localPeer.shutdown(),
    );
    expect(await localPeer.waitForLocalEvaluationReady(5000)).toBe(true);
    expect(await hogtailLocal.waitForLocalEvaluationReady(5000)).toBe(true);
    for (let i = 0; i < 25; i++) {
      const options = {
        personProperties: { plan: i % 2 ? 'pro' : 'free' },
        groups: { company: `co-${i % 7}` },
        sendFeatureFlagEvents: false,
      };
      for (const key of KEYS) {
        const expected = await hogtail.getFeatureFlag(key, `user-${i}`, options);
        expect(expected, `${key} for user-${i}`).not.toBeUndefined();
        expect(await remotePeer.getFeatureFlag(key, `user-${i}`, options), `posthog-node remote: ${key} for user-${i}`).toBe(expected);
        expect(
          await localPeer.getFeatureFlag(key, `user-${i}`, { ...options, onlyEvaluateLocally: true }),
          `posthog-node local: ${key} for user-${i}`,
        ).toBe(expected);
        expect(
          await hogtailLocal.getFeatureFlag(key, `user-${i}`, { ...options, onlyEvaluateLocally: true }),
          `hogtail local: ${key} for user-${i}`,
        ).toBe(expected);
      }
    }
    const payload = await remotePeer.getFeatureFlagPayload('checkout', 'user-1');
    expect(payload).toEqual(await hogtail.getFeatureFlagPayload('checkout', 'user-1'));
  });
});

describe('examples/flags.json', () => {
  it('loads strictly and evaluates its cohort and dependency flags', async () => {
    const file = new URL('../../examples/flags.json', import.meta.url).pathname;
    const flags = createFlagsDecide({ file });
    const recent = new Date(Date.now() - 3 * 86_400_000).toISOString();
    const pro = flags.evaluate('user-1', { person_properties: { email: 'user-1@x.io', plan: 'pro', signed_up: recent } }).featureFlags;
    expect(pro).toMatchObject({ 'pro-dashboard': true, 'pro-dashboard-tour': true, 'early-access': true });
    const free = flags.evaluate('user-2', { person_properties: { email: 'user-2@x.io', plan: 'free', signed_up: recent } }).featureFlags;
    expect(free).toMatchObject({ 'pro-dashboard': false, 'pro-dashboard-tour': false, 'early-access': false });
  });
});
