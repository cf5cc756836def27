// @vitest-environment happy-dom
// Browser feature flags against a real collector on 127.0.0.1: flag requests (`/flags/?v=2`, or
// `/decide/?v=3` on an older server) as the server sees them, events as they arrive. Waits are for
// conditions (a request, an event), never for a duration, except where a test must show that
// something did NOT happen (then it waits for several polls).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import type { Hogtail } from '../../src/browser/hogtail';
import { createCollector, defaultDecideResponse, type Collector, type DecideRequest, type DecideResponse } from '../../src/devserver';
import { sendText } from '../../src/devserver/http/respond';
import { manyFlagsAnswer } from '../support/many-flags';

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
  headers: Record<string, unknown>;
  query: string | undefined;
}

/** A scripted answer to a flags request, instead of the collector's own. */
interface Scripted {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

let collector: Collector;
let seen: Seen[];
let answer: (request: DecideRequest) => Partial<DecideResponse> | Promise<Partial<DecideResponse>>;
/** The URL of every POST, in the order they arrived. */
let paths: string[];
/** Answers POSTs to /flags/ and /decide/ itself when it returns an answer (fault injection). */
let script: ((url: string, index: number) => Scripted | undefined) | undefined;
let inFlight = 0;
let maxInFlight = 0;

beforeEach(async () => {
  localStorage.clear();
  seen = [];
  paths = [];
  script = undefined;
  inFlight = maxInFlight = 0;
  answer = () => ({ featureFlags: { beta: true, off: false, exp: 'test' }, featureFlagPayloads: { exp: '{"color":"red"}' } });
  collector = await createCollector({
    handleExchange(exchange) {
      const url = exchange.req.url ?? '';
      // happy-dom preflights every cross-origin request, simple or not: only the POSTs are counted.
      if (exchange.req.method === 'POST') paths.push(url);
      const scripted = exchange.outcome.kind === 'decide' ? script?.(url, flagRequests().length - 1) : undefined;
      if (scripted) return sendText(exchange.req, exchange.res, scripted.status, scripted.body, scripted.headers);
      exchange.record();
      exchange.respond();
    },
    async decide(request, headers) {
      seen.push({ ...request, contentType: headers['content-type'] as string | undefined, headers, query: request.version });
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
/** The URLs of the flag requests (either endpoint) in the order they arrived. */
const flagRequests = () => paths.filter((path) => path.startsWith('/flags/') || path.startsWith('/decide/'));
const V2_ONLY = JSON.stringify({
  flags: {
    beta: { key: 'beta', enabled: true, variant: null, metadata: { id: 1, version: 1, payload: null } },
    exp: { key: 'exp', enabled: true, variant: 'test', metadata: { id: 2, version: 1, payload: '{"color":"blue"}' } },
    off: { key: 'off', enabled: false, variant: null, metadata: { id: 3, version: 1, payload: null } },
  },
  errorsWhileComputingFlags: false,
  requestId: 'req-v2',
  supportedCompression: ['gzip', 'gzip-js'],
});

describe('browser feature flags', () => {
  it('asks /flags/?v=2&config=true at init with the key and identity, as a simple text/plain request, and hands flags to onFeatureFlags', async () => {
    const client = init();
    const [active, flags] = await flagsKnown(client);
    expect(flags).toEqual({ beta: true, off: false, exp: 'test' });
    expect(active.sort()).toEqual(['beta', 'exp']);
    expect(flagRequests()).toEqual(['/flags/?v=2&config=true']);
    expect(seen).toHaveLength(1);
    // The body of today's servers: the override objects present even when empty.
    expect(seen[0]!.body).toEqual({
      token: KEY,
      distinct_id: client.get_distinct_id(),
      groups: {},
      person_properties: {},
      group_properties: {},
      geoip_disable: false,
    });
    expect(seen[0]!.query).toBe('2');
    // No custom headers and a string body: the browser sends text/plain, which needs no preflight.
    expect(seen[0]!.contentType).toMatch(/^text\/plain/);
    expect(Object.keys(seen[0]!.headers).filter((name) => name.startsWith('x-') || name === 'content-encoding')).toEqual([]);
    expect(client.getFeatureFlag('exp', { send_event: false })).toBe('test');
    expect(client.isFeatureEnabled('off', { send_event: false })).toBe(false);
    expect(client.getFeatureFlagPayload('exp')).toEqual({ color: 'red' });
  });

  it('reads all 400 flags of a 140 KB answer (a flags answer is not capped like a batch answer)', async () => {
    const many = manyFlagsAnswer(400);
    script = (url) =>
      url.startsWith('/flags/') ? { status: 200, body: many.body, headers: { 'Content-Type': 'application/json' } } : undefined;
    const client = init();
    const [, flags] = await flagsKnown(client);
    expect(flags).toEqual(many.values);
  });

  it('reads the v2 answer (flags with enabled, variant, metadata.payload), and $feature_flag_called carries its requestId', async () => {
    script = (url) =>
      url.startsWith('/flags/') ? { status: 200, body: V2_ONLY, headers: { 'Content-Type': 'application/json' } } : undefined;
    const client = init();
    const [, flags] = await flagsKnown(client);
    expect(flags).toEqual({ beta: true, exp: 'test', off: false });
    expect(client.getFeatureFlagPayload('exp')).toEqual({ color: 'blue' });
    expect(client.getFeatureFlag('exp')).toBe('test');
    // A key the answer does not have: no value, so none is recorded (never false).
    expect(client.getFeatureFlag('unknown')).toBeUndefined();
    await client.flush();
    const called = eventsNamed('$feature_flag_called').map((event) => event.properties);
    expect(called).toHaveLength(2);
    expect(called[0]).toMatchObject({ $feature_flag: 'exp', $feature_flag_response: 'test', $feature_flag_request_id: 'req-v2' });
    expect(called[1]).toMatchObject({ $feature_flag: 'unknown', $feature_flag_request_id: 'req-v2' });
    expect('$feature_flag_response' in called[1]!).toBe(false);
  });

  it('an older server: /flags answering 404 sends this and every later request to /decide/?v=3, with no error', async () => {
    const errors: string[] = [];
    script = (url) => (url.startsWith('/flags/') ? { status: 404, body: 'Not Found' } : undefined);
    const client = init();
    client.on('error', (error) => errors.push(error.message));
    const [, flags] = await flagsKnown(client);
    expect(flags).toEqual({ beta: true, off: false, exp: 'test' });
    client.identify('user-decide');
    await until(() => seen.length === 3, 'the second lookup');
    expect(flagRequests()).toEqual(['/flags/?v=2&config=true', '/decide/?v=3', '/decide/?v=3']);
    expect(seen[2]).toMatchObject({ distinct_id: 'user-decide', query: '3' });
    expect(seen[2]!.body).toMatchObject({ token: KEY, groups: {}, person_properties: {} });
    expect(errors).toEqual([]);
  });

  it('a 502 is retried (Retry-After honoured) and the flags arrive, with no error', async () => {
    const errors: string[] = [];
    script = (url, index) => (index < 2 ? { status: 502, body: 'bad gateway', headers: { 'Retry-After': '0' } } : undefined);
    const client = init();
    client.on('error', (error) => errors.push(error.message));
    const [, flags] = await flagsKnown(client);
    expect(flags).toEqual({ beta: true, off: false, exp: 'test' });
    expect(flagRequests()).toEqual(['/flags/?v=2&config=true', '/flags/?v=2&config=true', '/flags/?v=2&config=true']);
    expect(errors).toEqual([]);
  });

  it('a 400 is not retried: reported at once, the last good flags kept', async () => {
    const client = init();
    await flagsKnown(client);
    const errors: string[] = [];
    client.on('error', (error) => errors.push(error.message));
    script = () => ({ status: 400, body: 'bad request' });
    client.reloadFeatureFlags();
    await until(() => errors.length === 1, 'the reported failure');
    expect(errors[0]).toMatch(/^feature flags not updated: http:\/\/127\.0\.0\.1:\d+\/flags\/\?v=2&config=true answered 400: bad request$/);
    expect(flagRequests()).toHaveLength(2);
    expect(client.getFeatureFlag('beta', { send_event: false })).toBe(true);
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
    expect(seen[6]!.body).toMatchObject({ groups: {}, person_properties: {}, group_properties: {} });
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

  it('a failing server keeps the last good flags: retried twice, then reported, and the next trigger tries again', async () => {
    const errors: string[] = [];
    const client = init();
    client.on('error', (error) => errors.push(error.message));
    await flagsKnown(client);
    answer = () => {
      throw new Error('decide is down');
    };
    client.reloadFeatureFlags();
    await until(() => errors.length === 1, 'the reported failure');
    expect(errors[0]).toMatch(
      /^feature flags not updated: .*\/flags\/\?v=2&config=true answered 500: .*decide is down \(after 2 retries; \d+ ms allowed\)$/,
    );
    expect(flagRequests()).toHaveLength(4); // the first lookup, then one and its 2 retries
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
    expect(errors[0]).toMatch(/feature flags not updated/);
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
    // Counted where the page asks (the real fetch still carries every request): a request already
    // in flight when the page hid may arrive at the server any time later on a loaded machine, and
    // one reload queued behind it (reloadFlags keeps at most one waiting) may still be asked.
    // Only this test's collector counts: clients of earlier tests share the page's fetch and may
    // still be retrying against their own (closed) collectors.
    const realFetch = globalThis.fetch;
    let asked = 0;
    const ours = new RegExp(`^${collector.url}/(flags|decide)/`);
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => (ours.test(String(args[0])) && asked++, realFetch(...args))) as typeof fetch;
    try {
      await sleep(300);
      const askedWhileHidden = asked;
      expect(askedWhileHidden).toBeLessThanOrEqual(1); // polling on would have asked about fifteen times
      delete (document as { visibilityState?: unknown }).visibilityState;
      // Polling again, and counted by the same wrapper: the count above is not zero for want of a match.
      await until(() => asked >= askedWhileHidden + 2, 'polls after the page is visible again');
    } finally {
      globalThis.fetch = realFetch;
      delete (document as { visibilityState?: unknown }).visibilityState;
    }
    client.opt_out_capturing();
  });

  it('the poll stops itself once the page environment is gone (a torn-down test DOM), and never throws', async () => {
    const client = init({ flags_poll_interval_ms: 20 });
    await until(() => seen.length >= 2, 'polled decides');
    const page = globalThis.document;
    Object.defineProperty(globalThis, 'document', { configurable: true, writable: true, value: undefined });
    try {
      await sleep(100); // several polls: each would have read document.visibilityState and thrown
    } finally {
      Object.defineProperty(globalThis, 'document', { configurable: true, writable: true, value: page });
    }
    // Counted where the page asks: a request already in flight may arrive at the server any time
    // later, and the one reload queued behind it may still be asked. Only this test's collector
    // counts: clients of earlier tests share the page's fetch and may still be retrying against
    // their own (closed) collectors, which on a loaded machine lands in this window.
    const realFetch = globalThis.fetch;
    let asked = 0;
    const ours = new RegExp(`^${collector.url}/(flags|decide)/`);
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => (ours.test(String(args[0])) && asked++, realFetch(...args))) as typeof fetch;
    try {
      await sleep(300);
      expect(asked).toBeLessThanOrEqual(1); // stopped for good, not merely skipped while the page was gone
    } finally {
      globalThis.fetch = realFetch;
    }
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
    expect(
      batches()
        .slice(before)
        .every((path) => path === '/batch/?compression=gzip-js'),
    ).toBe(true);
  });
  it('flags, payloads and group types named __proto__, constructor or toString are entries like any other', async () => {
    // Text, as a server sends it: `__proto__` is then a key of the answer, not a prototype.
    const body = `{"flags": {"__proto__": {"enabled": true, "variant": "x", "metadata": {"payload": "{\\"n\\":1}"}}, "beta": {"enabled": true, "variant": null, "metadata": {}}}, "requestId": "r"}`;
    script = (url) => (url.startsWith('/flags/') ? { status: 200, body, headers: { 'Content-Type': 'application/json' } } : undefined);
    const client = init();
    const [active, flags] = await flagsKnown(client);
    expect(Object.keys(flags).sort()).toEqual(['__proto__', 'beta']);
    expect(active.sort()).toEqual(['__proto__', 'beta']);
    expect(client.getFeatureFlag('__proto__', { send_event: false })).toBe('x');
    expect(client.getFeatureFlagPayload('__proto__')).toEqual({ n: 1 });
    for (const inherited of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(client.getFeatureFlag(inherited, { send_event: false })).toBeUndefined();
      expect(client.isFeatureEnabled(inherited, { send_event: false })).toBe(false);
      expect(client.getFeatureFlagPayload(inherited)).toBeUndefined();
    }
    client.setGroupPropertiesForFlags(
      JSON.parse('{"__proto__": {"size": 3}, "constructor": {"tier": "gold"}}') as Record<string, Record<string, unknown>>,
    );
    await until(() => seen.length === 2, 'the request after setGroupPropertiesForFlags');
    expect(JSON.stringify(seen[1]!.group_properties)).toBe('{"__proto__":{"size":3},"constructor":{"tier":"gold"}}');
    // The next page reads the stored flags back the same way.
    const next = init();
    expect(next.getFeatureFlag('__proto__', { send_event: false })).toBe('x');
    expect(next.getFeatureFlag('constructor', { send_event: false })).toBeUndefined();
    await until(() => seen.length === 3, "the next page's request");
  });
});
