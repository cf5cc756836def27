// posthog-node's options and methods with posthog-node's meaning, against a real collector on
// 127.0.0.1: fetchRetryCount, before_send, disableGeoip and $ip, optIn/optOut, the *Immediate
// methods, the fetch option, and a host refused at construction. posthog-node runs the same
// scenario where it can.
import { PostHog as PeerPostHog } from 'posthog-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { collectingClient } from './support/collecting-client';
import { DroppedEventsError, InvalidEventError, PostHog } from '../../src/node';
import { createFaultCollector } from '../support/fault-collector';

let collector: Collector | undefined;
const clients: { shutdown(ms?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(500).catch(() => {})));
  await collector?.close();
  collector = undefined;
});

function client(...args: Parameters<typeof collectingClient>) {
  const made = collectingClient(...args);
  clients.push(made.client);
  return made;
}

describe('fetchRetryCount', () => {
  it('set: a batch still failing after that many retries is dropped and reported, as posthog-node drops it', async () => {
    const failing = await createFaultCollector({ plan: () => ({ kind: 'status', status: 503 }) });
    collector = failing;
    const { client: ours, errors } = client(failing.url, { fetchRetryCount: 3, fetchRetryDelay: 1 });
    ours.capture({ distinctId: 'u', event: 'lost' });
    await ours.flush();
    const batchRequests = () => failing.log.filter((entry) => entry.path === '/batch/').length;
    expect(batchRequests()).toBe(4);
    const dropped = errors.filter((e): e is DroppedEventsError => e instanceof DroppedEventsError);
    expect(dropped.map((e) => [e.reason, e.count])).toEqual([['retries_exhausted', 1]]);
    expect(ours.stats().dropped).toEqual({ retries_exhausted: 1 });

    failing.clear();
    const peer = new PeerPostHog('phc_k', { host: failing.url, flushAt: 1000, fetchRetryCount: 3, fetchRetryDelay: 1 });
    peer.on('error', () => {});
    peer.capture({ distinctId: 'u', event: 'lost' });
    await peer.flush().catch(() => {});
    expect(batchRequests()).toBe(4);
    await peer.shutdown(100).catch(() => {});
  });

  it('not set: transient failures never drop; the batch arrives once the server recovers', async () => {
    const recovering = await createFaultCollector({ plan: (index) => (index < 6 ? { kind: 'status', status: 503 } : undefined) });
    collector = recovering;
    const { client: ours, errors } = client(recovering.url, { retry: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 100 } });
    ours.capture({ distinctId: 'u', event: 'kept' });
    await ours.flush();
    expect(recovering.events.map((e) => e.event)).toEqual(['kept']);
    expect(errors.filter((e) => e.name === 'DroppedEventsError')).toEqual([]);
  });
});

describe('before_send', () => {
  it('changes or drops events (a drop is counted, not reported); a hook that throws leaves the event as it was and is reported', async () => {
    collector = await createCollector();
    const { client: ours, errors } = client(collector.url, {
      before_send: [
        (event) => (event ? { ...event, properties: { ...event.properties, scrubbed: true } } : null),
        (event) => (event?.event === 'secret' ? null : event),
        (event) => {
          if (event?.event === 'fragile') throw new Error('hook bug');
          return event;
        },
      ],
    });
    ours.capture({ distinctId: 'u', event: 'kept', properties: { a: 1 } });
    ours.capture({ distinctId: 'u', event: 'secret' });
    ours.capture({ distinctId: 'u', event: 'fragile' });
    await ours.flush();
    expect(collector.events.map((e) => [e.event, e.properties.scrubbed])).toEqual([
      ['kept', true],
      ['fragile', true],
    ]);
    expect(ours.stats().dropped).toEqual({ before_send: 1 });
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/before_send hook threw \(Error: hook bug\)/)]);
  });
});

describe('before_send against posthog-node', () => {
  it('the same hooks change and drop the same events in both SDKs', async () => {
    collector = await createCollector();
    type Hooked = { event: string; properties?: Record<string, unknown> } | null;
    const hooks = [
      (event: Hooked) => (event ? { ...event, properties: { ...event.properties, scrubbed: true, email: undefined } } : null),
      (event: Hooked) => (event?.event === 'secret' ? null : event),
    ];
    const { client: ours } = client(collector.url, { before_send: hooks as never });
    const peer = new PeerPostHog('phc_k', { host: collector.url, flushAt: 1000, before_send: hooks as never });
    for (const sdk of [ours, peer] as const) {
      sdk.capture({ distinctId: 'u', event: 'kept', properties: { email: 'a@example.com', plan: 'pro' } });
      sdk.capture({ distinctId: 'u', event: 'secret', properties: { plan: 'pro' } });
    }
    await ours.flush();
    await peer.shutdown(2000);
    const seen = collector.events.map((e) => [
      e.properties.$lib === 'hogtail-node' ? 'hogtail' : 'posthog-node',
      e.event,
      e.properties.scrubbed,
      'email' in e.properties,
    ]);
    expect(seen.sort()).toEqual([
      ['hogtail', 'kept', true, false],
      ['posthog-node', 'kept', true, false],
    ]);
  });
});

describe('disableGeoip and ip', () => {
  it("by default events say $geoip_disable (the server's address is not the user's), as posthog-node's do; with ip they carry $ip instead", async () => {
    collector = await createCollector();
    const { client: ours } = client(collector.url);
    ours.capture({ distinctId: 'u', event: 'default' });
    ours.capture({ distinctId: 'u', event: 'with ip', ip: '203.0.113.9' });
    ours.capture({ distinctId: 'u', event: 'per call', disableGeoip: false });
    await ours.flush();
    const peer = new PeerPostHog('phc_k', { host: collector.url, flushAt: 1000 });
    peer.capture({ distinctId: 'u', event: 'peer default' });
    await peer.shutdown(2000);
    const props = Object.fromEntries(collector.events.map((e) => [e.event, e.properties]));
    expect(props.default!.$geoip_disable).toBe(true);
    expect(props['peer default']!.$geoip_disable).toBe(true);
    expect(props['with ip']!.$ip).toBe('203.0.113.9');
    expect('$geoip_disable' in props['with ip']!).toBe(false);
    expect('$geoip_disable' in props['per call']!).toBe(false);
  });

  it('disableGeoip: false on the client turns the marker off everywhere', async () => {
    collector = await createCollector();
    const { client: ours } = client(collector.url, { disableGeoip: false });
    ours.capture({ distinctId: 'u', event: 'e' });
    ours.identify({ distinctId: 'u', properties: { plan: 'pro' } });
    await ours.flush();
    expect(collector.events.map((e) => '$geoip_disable' in e.properties)).toEqual([false, false]);
  });
});

describe('optIn / optOut', () => {
  it('optOut() stops sending (counted as opted_out), optIn() resumes', async () => {
    collector = await createCollector();
    const { client: ours } = client(collector.url);
    await ours.optOut();
    ours.capture({ distinctId: 'u', event: 'while out' });
    await ours.optIn();
    ours.capture({ distinctId: 'u', event: 'back in' });
    await ours.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['back in']);
    expect(ours.stats().dropped).toEqual({ opted_out: 1 });
  });
});

describe('*Immediate', () => {
  it('settle once their event is acknowledged, in capture order with everything else', async () => {
    collector = await createCollector();
    const { client: ours } = client(collector.url);
    ours.capture({ distinctId: 'u', event: 'before' });
    await ours.captureImmediate({ distinctId: 'u', event: 'now' });
    expect(collector.events.map((e) => e.event)).toEqual(['before', 'now']);
    await ours.identifyImmediate({ distinctId: 'u', properties: { plan: 'pro' } });
    await ours.aliasImmediate({ distinctId: 'u', alias: 'anon' });
    await ours.groupIdentifyImmediate({ groupType: 'company', groupKey: 'acme' });
    expect(collector.events.map((e) => e.event)).toEqual(['before', 'now', '$identify', '$create_alias', '$groupidentify']);
  });

  it('reject with the drop: a refused event at once, a rejected request once the server answers', async () => {
    const refusing = await createFaultCollector({ plan: () => ({ kind: 'status', status: 401 }) });
    collector = refusing;
    const { client: ours } = client(refusing.url);
    await expect(ours.captureImmediate({ distinctId: '', event: 'no id' })).rejects.toBeInstanceOf(InvalidEventError);
    const rejected = await ours.captureImmediate({ distinctId: 'u', event: 'refused' }).catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(DroppedEventsError);
    expect((rejected as DroppedEventsError).reason).toBe('rejected');
  });
});

describe('fetch', () => {
  it('a fetch-compatible function carries every request instead of node:http', async () => {
    collector = await createCollector();
    const seen: string[] = [];
    const { client: ours } = client(collector.url, {
      fetch: (url, init) => {
        seen.push(new URL(url).pathname);
        return fetch(url, init);
      },
    });
    ours.capture({ distinctId: 'u', event: 'through fetch' });
    await ours.getAllFlags('u');
    await ours.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['through fetch']);
    expect(seen.sort()).toEqual(['/batch/', '/flags/']);
  });
});

describe('host', () => {
  it.each(['not a url', 'file:///tmp/x', 'ftp://example.com', 'http://127.0.0.1:99999'])(
    '%s is refused at construction, saying why',
    (host) => {
      expect(() => new PostHog('phc_k', { host })).toThrow(/the host option must be the http\(s\) URL of your PostHog instance/);
    },
  );
});
