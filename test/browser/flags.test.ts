// @vitest-environment happy-dom
// Browser feature flags against a real collector on 127.0.0.1: decide requests as the server sees
// them, events as they arrive. Waits are for conditions (a request, an event), never for a duration,
// except where a test must show that something did NOT happen (then it waits for several polls).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHogtail } from '../../src/browser/drop-in';
import type { Hogtail } from '../../src/browser/hogtail';
import { createCollector, defaultDecideResponse, type Collector, type DecideRequest, type DecideResponse } from '../../src/devserver';

const KEY = 'phc_flags';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(check: () => T | undefined | false, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

interface Seen extends DecideRequest {
  contentType: string | undefined;
  query: string | undefined;
}

let collector: Collector;
let seen: Seen[];
let answer: (request: DecideRequest) => Partial<DecideResponse> | Promise<Partial<DecideResponse>>;
let paths: string[];
let inFlight = 0;
let maxInFlight = 0;

beforeEach(async () => {
  localStorage.clear();
  seen = [];
  paths = [];
  inFlight = maxInFlight = 0;
  answer = () => ({ featureFlags: { beta: true, off: false, exp: 'test' }, featureFlagPayloads: { exp: '{"color":"red"}' } });
  collector = await createCollector({
    handleExchange(exchange) {
      paths.push(exchange.req.url ?? '');
      exchange.record();
      exchange.respond();
    },
    async decide(request, headers) {
      seen.push({ ...request, contentType: headers['content-type'] as string | undefined, query: request.version });
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return { ...defaultDecideResponse(), ...(await answer(request)) };
      } finally {
        inFlight--;
      }
    },
  });
});
afterEach(async () => {
  await collector.close();
});

const init = (config: Record<string, unknown> = {}): Hogtail => {
  const client = createHogtail();
  client.init(KEY, { api_host: collector.url, capture_pageview: false, flush_at: 1, ...config });
  return client;
};
const flagsKnown = (client: Hogtail) =>
  new Promise<[string[], Record<string, unknown>]>((resolve) => client.onFeatureFlags((active, flags) => resolve([active, flags])));
const eventsNamed = (name: string) => collector.events.filter((event) => event.event === name);

describe('browser feature flags', () => {
  it('asks decide at init with the project key and identity, as a simple text/plain request, and hands flags to onFeatureFlags', async () => {
    const client = init();
    const [active, flags] = await flagsKnown(client);
    expect(flags).toEqual({ beta: true, off: false, exp: 'test' });
    expect(active.sort()).toEqual(['beta', 'exp']);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ api_key: KEY, distinct_id: client.get_distinct_id(), query: '3' });
    // No custom headers and a string body: the browser sends text/plain, which needs no preflight.
    expect(seen[0]!.contentType).toMatch(/^text\/plain/);
    expect(client.getFeatureFlag('exp', { send_event: false })).toBe('test');
    expect(client.isFeatureEnabled('off', { send_event: false })).toBe(false);
    expect(client.getFeatureFlagPayload('exp')).toEqual({ color: 'red' });
  });

  it('sends groups, person and group property overrides; identify, group, reset and the setters ask again', async () => {
    const client = init();
    await flagsKnown(client);
    client.identify('user-1');
    await until(() => seen.length === 2, 'decide after identify');
    expect(seen[1]!.distinct_id).toBe('user-1');

    client.group('company', 'acme');
    await until(() => seen.length === 3, 'decide after group');
    expect(seen[2]!.groups).toEqual({ company: 'acme' });

    client.setPersonPropertiesForFlags({ plan: 'pro' });
    await until(() => seen.length === 4, 'decide after setPersonPropertiesForFlags');
    expect(seen[3]!.person_properties).toEqual({ plan: 'pro' });

    client.setGroupPropertiesForFlags({ company: { size: 3 } });
    await until(() => seen.length === 5, 'decide after setGroupPropertiesForFlags');
    expect(seen[4]!.group_properties).toEqual({ company: { size: 3 } });
    expect(seen[4]!.person_properties).toEqual({ plan: 'pro' });

    // reload: false stores the override for the next request without making one.
    client.setPersonPropertiesForFlags({ seats: 5 }, false);
    client.setGroupPropertiesForFlags({ company: { tier: 'gold' } }, false);
    client.reloadFeatureFlags();
    await until(() => seen.length === 6, 'decide after reloadFeatureFlags');
    expect(seen[5]!.person_properties).toEqual({ plan: 'pro', seats: 5 });
    expect(seen[5]!.group_properties).toEqual({ company: { size: 3, tier: 'gold' } });

    client.reset();
    await until(() => seen.length === 7, 'decide after reset');
    expect(seen[6]!.distinct_id).toBe(client.get_distinct_id());
    expect(seen[6]!.distinct_id).not.toBe('user-1');
    expect(seen[6]!.groups).toBeUndefined();
    expect(seen[6]!.person_properties).toBeUndefined();
    await sleep(50);
    expect(seen).toHaveLength(7);
  });

  it('debounces: init, identify and group in one task make one request, with the final identity', async () => {
    const client = init();
    client.identify('user-2');
    client.group('company', 'acme');
    await flagsKnown(client);
    await until(() => seen.length >= 1, 'decide');
    await sleep(50);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ distinct_id: 'user-2', groups: { company: 'acme' } });
  });

  it('one request at a time: reloads asked for during a request make exactly one more, after it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const base = answer;
    answer = async (request) => {
      if (seen.length === 1) await gate;
      return base(request);
    };
    const client = init();
    await until(() => seen.length === 1, 'the first decide');
    client.reloadFeatureFlags();
    await sleep(20);
    client.identify('user-3');
    await sleep(20);
    client.reloadFeatureFlags();
    await sleep(20);
    expect(seen).toHaveLength(1);
    release();
    await until(() => seen.length === 2, 'the queued decide');
    expect(seen[1]!.distinct_id).toBe('user-3');
    await sleep(50);
    expect(seen).toHaveLength(2);
    expect(maxInFlight).toBe(1);
  });

  it('every event after flags are known carries $feature/<key> (false included) and $active_feature_flags', async () => {
    const client = init();
    await flagsKnown(client);
    client.capture('after flags');
    await client.flush();
    const [event] = eventsNamed('after flags');
    expect(event!.properties).toMatchObject({ '$feature/beta': true, '$feature/off': false, '$feature/exp': 'test' });
    expect((event!.properties.$active_feature_flags as string[]).sort()).toEqual(['beta', 'exp']);
  });

  it('$feature_flag_called once per (distinct id, key, value); send_event: false sends none; a new id starts over', async () => {
    const client = init();
    await flagsKnown(client);
    expect(client.getFeatureFlag('beta', { send_event: false })).toBe(true);
    expect(client.getFeatureFlag('beta')).toBe(true);
    expect(client.isFeatureEnabled('beta')).toBe(true);
    expect(client.getFeatureFlag('exp')).toBe('test');
    client.isFeatureEnabled('exp');
    await client.flush();
    expect(eventsNamed('$feature_flag_called').map((e) => [e.properties.$feature_flag, e.properties.$feature_flag_response])).toEqual([
      ['beta', true],
      ['exp', 'test'],
    ]);

    // A new value for the same key is a new pair.
    answer = () => ({ featureFlags: { beta: true, exp: 'control' } });
    const changed = new Promise<void>((resolve) => {
      let calls = 0;
      client.onFeatureFlags(() => ++calls === 2 && resolve());
    });
    client.reloadFeatureFlags();
    await changed;
    client.getFeatureFlag('exp');
    client.getFeatureFlag('exp');
    await client.flush();
    expect(eventsNamed('$feature_flag_called')).toHaveLength(3);

    // Same pair, another person: sent again for them.
    client.identify('user-4');
    client.getFeatureFlag('beta');
    client.getFeatureFlag('beta');
    await client.flush();
    const calls = eventsNamed('$feature_flag_called');
    expect(calls).toHaveLength(4);
    expect(calls[3]!.properties).toMatchObject({ distinct_id: 'user-4', $feature_flag: 'beta', $feature_flag_response: true });
  });

  it('the dedup survives a reload of the page (it is persisted)', async () => {
    const first = init();
    await flagsKnown(first);
    first.getFeatureFlag('beta');
    await first.flush();
    const second = init();
    second.getFeatureFlag('beta');
    second.capture('marker');
    await second.flush();
    await until(() => eventsNamed('marker').length === 1, 'the marker');
    expect(eventsNamed('$feature_flag_called')).toHaveLength(1);
  });

  it('before flags are known: undefined, no event; after: false for unknown keys of isFeatureEnabled', async () => {
    answer = () => new Promise(() => {}); // decide never answers
    const client = init();
    expect(client.getFeatureFlag('beta')).toBeUndefined();
    expect(client.isFeatureEnabled('beta')).toBeUndefined();
    expect(client.getFeatureFlagPayload('beta')).toBeUndefined();
    client.capture('before flags');
    await client.flush();
    expect(eventsNamed('$feature_flag_called')).toHaveLength(0);
    const [event] = eventsNamed('before flags');
    expect(Object.keys(event!.properties).filter((key) => key.startsWith('$feature') || key === '$active_feature_flags')).toEqual([]);
  });

  it('the last good flags are persisted and used at once by the next page, before decide answers', async () => {
    const first = init();
    await flagsKnown(first);
    await sleep(0); // the state write is coalesced to the end of the task

    answer = () => new Promise(() => {}); // the next page's decide never answers
    const second = init();
    let heard: Record<string, unknown> | undefined;
    second.onFeatureFlags((_, flags) => (heard = flags));
    expect(heard).toEqual({ beta: true, off: false, exp: 'test' });
    expect(second.getFeatureFlag('exp', { send_event: false })).toBe('test');
    second.capture('next page');
    await second.flush();
    expect(eventsNamed('next page')[0]!.properties['$feature/beta']).toBe(true);
  });

  it('onFeatureFlags before init is called once flags are known, on every change, and not after unsubscribing', async () => {
    const client = createHogtail();
    const heard: Record<string, unknown>[] = [];
    const unsubscribe = client.onFeatureFlags((_, flags) => heard.push(flags));
    client.init(KEY, { api_host: collector.url, capture_pageview: false });
    await until(() => heard.length === 1, 'the first flags');

    // The same answer again is no change.
    client.reloadFeatureFlags();
    await until(() => seen.length === 2, 'the second decide');
    answer = () => ({ featureFlags: { beta: false } });
    client.reloadFeatureFlags();
    await until(() => heard.length === 2, 'the changed flags');
    expect(heard).toEqual([{ beta: true, off: false, exp: 'test' }, { beta: false }]);

    unsubscribe();
    answer = () => ({ featureFlags: { beta: true } });
    client.reloadFeatureFlags();
    await until(() => seen.length === 4 && client.getFeatureFlag('beta', { send_event: false }) === true, 'the third flags');
    expect(heard).toHaveLength(2);
  });

  it('errorsWhileComputingFlags merges; quotaLimited keeps the old flags', async () => {
    const client = init();
    await flagsKnown(client);
    answer = () => ({ featureFlags: { beta: false, fresh: true }, errorsWhileComputingFlags: true });
    client.reloadFeatureFlags();
    await until(() => client.getFeatureFlag('fresh', { send_event: false }) === true, 'the merged flags');
    expect(client.getFeatureFlag('beta', { send_event: false })).toBe(false);
    expect(client.getFeatureFlag('exp', { send_event: false })).toBe('test');
    expect(client.getFeatureFlagPayload('exp')).toEqual({ color: 'red' });

    answer = () => ({ featureFlags: {}, quotaLimited: ['feature_flags'] });
    client.reloadFeatureFlags();
    await until(() => seen.length === 3, 'the quota-limited decide');
    client.capture('after quota');
    await client.flush();
    expect(eventsNamed('after quota')[0]!.properties).toMatchObject({ '$feature/fresh': true, '$feature/exp': 'test' });
  });

  it('a failed decide keeps the last good flags, is reported, and the next trigger tries again', async () => {
    const errors: string[] = [];
    const client = init();
    client.on('error', (error) => errors.push(error.message));
    await flagsKnown(client);
    answer = () => {
      throw new Error('decide is down');
    };
    client.reloadFeatureFlags();
    await until(() => errors.length === 1, 'the reported failure');
    expect(errors[0]).toMatch(/feature flags not loaded.*500/);
    expect(client.getFeatureFlag('beta', { send_event: false })).toBe(true);

    answer = () => ({ featureFlags: { beta: false } });
    client.identify('user-5');
    await until(() => client.getFeatureFlag('beta', { send_event: false }) === false, 'the retried decide');
  });

  it('a network failure keeps the last good flags', async () => {
    const client = init();
    await flagsKnown(client);
    const errors: string[] = [];
    client.on('error', (error) => errors.push(error.message));
    await collector.close(); // connection refused from now on
    client.reloadFeatureFlags();
    await until(() => errors.length === 1, 'the reported failure');
    expect(errors[0]).toMatch(/feature flags not loaded/);
    expect(client.getFeatureFlag('beta', { send_event: false })).toBe(true);
    collector = await createCollector(); // for afterEach
  });

  it('bootstrap flags are known at once, before any request, and replace stored ones', async () => {
    answer = () => new Promise(() => {});
    const client = createHogtail();
    let heard: Record<string, unknown> | undefined;
    client.onFeatureFlags((_, flags) => (heard = flags));
    client.init(KEY, {
      api_host: collector.url,
      capture_pageview: false,
      bootstrap: { distinctID: 'server-user', featureFlags: { beta: true, exp: 'b' }, featureFlagPayloads: { exp: '[1,2]' } },
    });
    expect(heard).toEqual({ beta: true, exp: 'b' });
    expect(client.get_distinct_id()).toBe('server-user');
    expect(client.getFeatureFlag('exp', { send_event: false })).toBe('b');
    expect(client.getFeatureFlagPayload('exp')).toEqual([1, 2]);
    await until(() => seen.length === 1, 'decide');
    expect(seen[0]!.distinct_id).toBe('server-user');
  });

  it('advanced_disable_feature_flags and advanced_disable_decide make no request', async () => {
    const a = init({ advanced_disable_feature_flags: true });
    const b = init({ advanced_disable_decide: true, bootstrap: { featureFlags: { beta: true } } });
    a.reloadFeatureFlags();
    b.identify('user-6');
    expect(b.getFeatureFlag('beta', { send_event: false })).toBe(true);
    a.capture('marker');
    await a.flush();
    await sleep(50);
    expect(seen).toHaveLength(0);
  });

  it('polls while the page is visible, not while hidden', async () => {
    const client = init({ flags_poll_interval_ms: 20 });
    await until(() => seen.length >= 3, 'polled decides');
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      await sleep(30); // a request may have been in flight
      const hidden = seen.length;
      await sleep(200);
      expect(seen.length).toBe(hidden);
    } finally {
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    await until(() => seen.length >= 5, 'polls after the page is visible again');
    client.opt_out_capturing();
  });

  it('supportedCompression decides whether batches are gzipped', async () => {
    const batches = () => paths.filter((path) => path.startsWith('/batch/'));
    answer = () => ({ featureFlags: {}, supportedCompression: ['lz64'] });
    const plain = init();
    await flagsKnown(plain);
    plain.capture('plain');
    await plain.flush();
    expect(eventsNamed('plain')).toHaveLength(1);
    expect(batches().length).toBeGreaterThan(0);
    expect(batches().every((path) => path === '/batch/')).toBe(true);
    const before = batches().length;

    answer = () => ({ featureFlags: {}, supportedCompression: ['gzip-js'] });
    localStorage.clear();
    const zipped = init();
    await flagsKnown(zipped);
    zipped.capture('zipped');
    await zipped.flush();
    expect(eventsNamed('zipped')).toHaveLength(1);
    expect(batches().length).toBeGreaterThan(before);
    expect(batches().slice(before).every((path) => path === '/batch/?compression=gzip-js')).toBe(true);
  });
});
