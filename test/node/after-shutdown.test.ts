// A client stays usable after shutdown(), as posthog-node's does: an event captured afterwards is
// queued and sent by the next flush() or shutdown(). This is what a module-level client in a
// Worker needs when each request hands `client.shutdown()` to `waitUntil`. posthog-node runs the
// same scenario against the same collector.
import { PostHog as PeerPostHog } from 'posthog-node';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog as EdgePostHog } from '../../src/edge';
import { collectingClient } from './support/collecting-client';

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

type ServerClientLike = {
  capture(m: { distinctId: string; event: string }): void;
  shutdown(ms?: number): Promise<void>;
  flush(): Promise<void>;
};

/** Three "requests", each capturing one event and then awaiting shutdown(), on one client. */
async function threeRequests(client: ServerClientLike): Promise<void> {
  for (const request of ['first', 'second', 'third']) {
    client.capture({ distinctId: 'u', event: request });
    await client.shutdown(5000);
  }
}

describe('capture after shutdown()', () => {
  it("posthog-node sends every request's event", async () => {
    collector = await createCollector();
    const peer = new PeerPostHog('phc_k', { host: collector.url, flushAt: 1000 });
    await threeRequests(peer);
    expect(collector.events.map((e) => e.event)).toEqual(['first', 'second', 'third']);
  });

  it("hogtail/node sends every request's event, and reports no drop", async () => {
    collector = await createCollector();
    const { client, errors } = collectingClient(collector.url);
    await threeRequests(client);
    expect(collector.events.map((e) => e.event)).toEqual(['first', 'second', 'third']);
    expect(errors).toEqual([]);
    expect(client.stats().dropped).toEqual({});
  });

  it("hogtail/edge sends every request's event", async () => {
    collector = await createCollector();
    const client = new EdgePostHog('phc_k', { host: collector.url, flushAt: 1000 });
    await threeRequests(client);
    expect(collector.events.map((e) => e.event)).toEqual(['first', 'second', 'third']);
  });

  it('an event captured after shutdown() waits for the next flush(), which sends it', async () => {
    collector = await createCollector();
    const { client } = collectingClient(collector.url);
    await client.shutdown(1000);
    client.capture({ distinctId: 'u', event: 'later' });
    client.identify({ distinctId: 'u', properties: { plan: 'pro' } });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['later', '$identify']);
    await client.shutdown(1000);
  });

  it('events captured while a shutdown runs go with it', async () => {
    collector = await createCollector();
    const { client } = collectingClient(collector.url);
    client.capture({ distinctId: 'u', event: 'before' });
    const first = client.shutdown(5000);
    client.capture({ distinctId: 'u', event: 'during' });
    await first;
    expect(collector.events.map((e) => e.event)).toEqual(['before', 'during']);
  });
});
