// @vitest-environment happy-dom
// @vitest-environment-options { "url": "http://app.shop.test/" }
// posthog-js options that #28 names (request_batching, property_blacklist, cookie_persisted_properties)
// and the capture option skip_client_rate_limiting, each compared with what posthog-js does with it
// (disable_external_dependency_loading: extension-loading.test.ts). Delivery goes to a real
// collector on 127.0.0.1.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHogtail } from '../../src/browser/api/drop-in';
import type { HogtailConfig } from '../../src/browser/hogtail';
import type { CaptureResult } from '../../src/browser/types';
import { createCollector, type Collector } from '../../src/devserver';

let KEY = 'phc_options';
let tests = 0;
let collector: Collector | undefined;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  KEY = `phc_options_${++tests}`;
});
afterEach(async () => {
  vi.restoreAllMocks();
  await collector?.close();
  collector = undefined;
});

/** A client whose events before_send records (and lets through), flags off. */
function start(config: HogtailConfig = {}) {
  const seen: CaptureResult[] = [];
  const client = createHogtail();
  client.on('error', () => {});
  client.init(KEY, {
    api_host: collector?.url ?? 'https://collector.test',
    capture_pageview: false,
    advanced_disable_flags: true,
    flush_interval: 600_000,
    before_send: (event) => (event && seen.push(event), collector ? event : null),
    ...config,
  });
  return { client, seen };
}

const cookie = (name: string): unknown => {
  const pair = document.cookie.split('; ').find((part) => part.startsWith(name + '='));
  return pair === undefined ? undefined : JSON.parse(decodeURIComponent(pair.slice(name.length + 1)));
};

describe('request_batching', () => {
  it('false: every event leaves at once in a request of its own (default: they wait for the batch)', async () => {
    collector = await createCollector();
    const { client } = start({ request_batching: false });
    client.capture('one');
    await collector.waitForEvents(1, 20_000);
    client.capture('two');
    client.capture('three');
    const events = await collector.waitForEvents(3, 20_000);
    expect(events.map((event) => event.event)).toEqual(['one', 'two', 'three']);
    // The first left alone, before anything else was captured: nothing waited for a batch.
    expect(events[0]!.requestId).not.toBe(events[1]!.requestId);
  });

  it('true (the default) keeps batching: nothing leaves before flush_at or flush_interval', async () => {
    collector = await createCollector();
    const { client } = start({ request_batching: true, flush_at: 3 });
    client.capture('one');
    client.capture('two');
    client.capture('three');
    const events = await collector.waitForEvents(3, 20_000);
    expect(new Set(events.map((event) => event.requestId)).size).toBe(1);
  });
});

describe('property_blacklist', () => {
  it("removes properties as property_denylist does, and with it both lists apply (posthog-js's merge)", () => {
    const { client, seen } = start({ property_blacklist: ['$current_url', 'secret'], property_denylist: ['$host'] });
    client.capture('bought', { secret: 'x', plan: 'pro' });
    const properties = seen[0]!.properties;
    expect(properties.plan).toBe('pro');
    for (const name of ['secret', '$current_url', '$host']) expect(properties).not.toHaveProperty(name);
  });

  it('alone is enough, and is not warned about as unknown', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client, seen } = start({ property_blacklist: ['$pathname'] });
    client.capture('viewed');
    expect(seen[0]!.properties).not.toHaveProperty('$pathname');
    expect(warn.mock.calls.flat().join(' ')).not.toContain('property_blacklist');
  });
});

describe('cookie_persisted_properties', () => {
  it("writes the named super properties into posthog-js's cookie beside the identity", async () => {
    const { client } = start({ cookie_persisted_properties: ['plan', 'empty', 'absent'] });
    client.register({ plan: 'pro', other: 1, empty: '' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(cookie(`ph_${KEY}_posthog`)).toMatchObject({ plan: 'pro', distinct_id: client.get_distinct_id() });
    expect(cookie(`ph_${KEY}_posthog`)).not.toHaveProperty('other');
    expect(cookie(`ph_${KEY}_posthog`)).not.toHaveProperty('empty');
  });

  it('another subdomain (a first visit that finds the cookie) starts with them registered', async () => {
    const first = start({ cookie_persisted_properties: ['plan'] }).client;
    first.register({ plan: 'team' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    localStorage.clear(); // what another subdomain has: the shared cookie only
    const { client, seen } = start({ cookie_persisted_properties: ['plan'] });
    client.capture('next');
    expect(client.get_distinct_id()).toBe(first.get_distinct_id());
    expect(seen[0]!.properties.plan).toBe('team');
  });
});

describe('skip_client_rate_limiting', () => {
  it('is accepted and changes nothing: hogtail has no client-side rate limit, so a burst is all queued', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { client, seen } = start();
    for (let i = 0; i < 150; i++) client.capture('burst', { i }, { skip_client_rate_limiting: i % 2 === 0 });
    // posthog-js keeps 100 of a burst unless the option is set; hogtail keeps all of them either way.
    expect(seen).toHaveLength(150);
    expect(warn).not.toHaveBeenCalled();
  });
});
