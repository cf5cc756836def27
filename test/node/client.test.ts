// The Node client against a real collector on 127.0.0.1: event shapes, person-profile rules,
// historical migration, bad input, and the error hook.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog, type HogtailError } from '../../src/node';
import { LIB_VERSION } from '../../src/core/version';

let collector: Collector | undefined;
const clients: PostHog[] = [];

async function setup(options: ConstructorParameters<typeof PostHog>[1] = {}) {
  collector = await createCollector();
  const client = new PostHog('phc_test_key', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0, ...options });
  const errors: HogtailError[] = [];
  client.on('error', (error) => errors.push(error));
  clients.push(client);
  return { collector, client, errors };
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(1000)));
  await collector?.close();
  collector = undefined;
});

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event shapes (spec §2, §6)', () => {
  it('capture with groups, identify, alias, groupIdentify, screen and the survey events', async () => {
    const { collector, client, errors } = await setup();
    client.capture({ distinctId: 'u1', event: 'order placed', properties: { total: 42 }, groups: { company: 'acme' } });
    client.identify({ distinctId: 'u1', properties: { email: 'a@example.com', $set_once: { first: 'x' } } });
    client.identify({ distinctId: 'u2', properties: { $set: { plan: 'pro' } } });
    client.alias({ distinctId: 'u1', alias: 'anon-1' });
    client.groupIdentify({ groupType: 'company', groupKey: 'acme', properties: { name: 'Acme' } });
    client.groupIdentify({ groupType: 'company', groupKey: 7, properties: { name: 'Seven' }, distinctId: 'u1' });
    client.screen({ distinctId: 'u1', name: 'Settings', properties: { tab: 'billing' } });
    client.surveyShown({ distinctId: 'u1', surveyId: 'sv1' });
    client.surveyDismissed({ distinctId: 'u1', surveyId: 'sv1' });
    client.surveySent({ distinctId: 'u1', surveyId: 'sv1', response: 'great' });
    await client.flush();
    expect(errors).toEqual([]);
    const events = collector.events;
    expect(events.map((e) => e.event)).toEqual([
      'order placed', '$identify', '$identify', '$create_alias', '$groupidentify', '$groupidentify',
      '$screen', 'survey shown', 'survey dismissed', 'survey sent',
    ]);
    for (const event of events) {
      expect(event.uuid).toMatch(UUID_V7);
      expect(event.api_key).toBe('phc_test_key');
      expect(event.properties.$lib).toBe('hogtail-node');
      expect(event.properties.$lib_version).toBe(LIB_VERSION);
      expect(new Date(event.timestamp!).toISOString()).toBe(event.timestamp);
      expect(event.historical_migration).toBe(false);
      expect('$process_person_profile' in event.properties).toBe(false);
    }
    const [capture, identify, identify2, alias, group, group2, screen, shown, dismissed, sent] = events;
    expect(capture!.properties).toMatchObject({ total: 42, $groups: { company: 'acme' } });
    expect(identify!.properties.$set).toEqual({ email: 'a@example.com' });
    expect(identify!.properties.$set_once).toEqual({ first: 'x' });
    expect(identify2!.properties.$set).toEqual({ plan: 'pro' });
    expect(alias!.distinct_id).toBe('u1');
    expect(alias!.properties.alias).toBe('anon-1');
    expect(group!.distinct_id).toBe('$company_acme');
    expect(group!.properties).toMatchObject({ $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } });
    expect(group2!.distinct_id).toBe('u1');
    expect(group2!.properties.$group_key).toBe('7');
    expect(screen!.properties).toMatchObject({ $screen_name: 'Settings', tab: 'billing' });
    expect(shown!.properties.$survey_id).toBe('sv1');
    expect(dismissed!.properties.$survey_id).toBe('sv1');
    expect(sent!.properties).toMatchObject({ $survey_id: 'sv1', $survey_response: 'great' });
  });

  it("personProfiles 'never' marks ordinary events, never $identify, $create_alias or $groupidentify", async () => {
    const { collector, client } = await setup({ personProfiles: 'never' });
    client.capture({ distinctId: 'u1', event: 'viewed' });
    client.identify({ distinctId: 'u1', properties: { a: 1 } });
    client.alias({ distinctId: 'u1', alias: 'x' });
    client.groupIdentify({ groupType: 'org', groupKey: 'o1' });
    client.screen({ distinctId: 'u1', name: 'Home' });
    await client.flush();
    const flags = Object.fromEntries(collector.events.map((e) => [e.event, e.properties.$process_person_profile]));
    expect(flags).toEqual({
      viewed: false, $identify: undefined, $create_alias: undefined, $groupidentify: undefined, $screen: false,
    });
  });

  it('keeps a caller uuid and timestamp', async () => {
    const { collector, client } = await setup();
    const uuid = '0190a0a0-0000-7000-8000-0000000000aa';
    client.capture({ distinctId: 'u', event: 'old', uuid, timestamp: new Date('2020-05-05T05:05:05Z') });
    await client.flush();
    expect(collector.events[0]).toMatchObject({ uuid, timestamp: '2020-05-05T05:05:05.000Z' });
  });
});

describe('the request', () => {
  it('is a gzip body with ?compression=gzip-js, api_key at the top, no token, sent_at, distinct_id in properties', async () => {
    const seen: { url: string; body: Record<string, any> }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({ url: req.url ?? '', body: JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8')) });
        res.end('{"status":"Ok"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const client = new PostHog('phc_k', { host: `http://127.0.0.1:${port}/`, flushOnExitTimeout: 0 });
    client.capture({ distinctId: 'u', event: 'e' });
    await client.shutdown(5000);
    server.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/batch/?compression=gzip-js');
    const body = seen[0]!.body;
    expect(body.api_key).toBe('phc_k');
    expect('token' in body).toBe(false);
    expect('historical_migration' in body).toBe(false);
    expect(new Date(body.sent_at).toISOString()).toBe(body.sent_at);
    expect(body.batch[0]).toMatchObject({ event: 'e', properties: { distinct_id: 'u' } });
    expect(Object.keys(body.batch[0]).sort()).toEqual(['event', 'properties', 'timestamp', 'uuid']);
  });

  it("compression: 'none' sends plain JSON the collector accepts", async () => {
    const { collector, client } = await setup({ compression: 'none' });
    client.capture({ distinctId: 'u', event: 'plain' });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['plain']);
  });

  it('historicalMigration sends historical_migration: true, in capture order, one request at a time', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const { collector, client } = await setup({ historicalMigration: true, flushAt: 7, maxBatchSize: 7 });
    const original = collector.url;
    // Count concurrency at the socket level through a tiny proxy in front of the collector.
    const proxy = http.createServer((req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const forward = http.request(original + req.url, { method: req.method, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 500, upstream.headers);
        upstream.pipe(res).on('finish', () => inFlight--);
      });
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const viaProxy = new PostHog('phc_test_key', {
      host: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
      historicalMigration: true, flushAt: 7, maxBatchSize: 7, flushOnExitTimeout: 0,
    });
    for (let i = 0; i < 100; i++) viaProxy.capture({ distinctId: `u${i % 3}`, event: 'imported', properties: { i } });
    await viaProxy.shutdown(10_000);
    proxy.close();
    await client.flush();
    expect(collector.events.map((e) => e.properties.i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(collector.events.every((e) => e.historical_migration === true)).toBe(true);
    expect(maxInFlight).toBe(1);
  });
});

describe('bad input never throws and never blocks the rest', () => {
  it('rejects each bad call with a named problem and delivers every good event', async () => {
    const { collector, client, errors } = await setup();
    const circular: Record<string, unknown> = { a: 1 };
    circular.me = circular;
    const calls: (() => void)[] = [
      () => client.capture({ distinctId: 'u', event: '' }),
      () => client.capture({ distinctId: '', event: 'e' }),
      () => client.capture({ distinctId: '   ', event: 'e' }),
      () => client.capture({ distinctId: { id: 1 } as never, event: 'e' }),
      () => client.capture({ event: 'e' } as never),
      () => client.capture(undefined as never),
      () => client.capture(null as never),
      () => client.capture({ distinctId: 'u', event: 'e', properties: [1] as never }),
      () => client.capture({ distinctId: 'u', event: 'e', timestamp: 'not a date' }),
      () => client.capture({ distinctId: 'u', event: 'e', uuid: 'nope' }),
      () => client.capture({ distinctId: 'u', event: 'huge', properties: { blob: 'x'.repeat(1_100_000) } }),
      () => client.alias({ distinctId: 'u', alias: '' }),
      () => client.groupIdentify({ groupType: '', groupKey: 'k' }),
      () => client.screen({ distinctId: 'u', name: '' }),
      () => client.surveySent({ distinctId: 'u', surveyId: 's' } as never),
      () => client.identify(undefined as never),
    ];
    for (const call of calls) {
      expect(call).not.toThrow();
      client.capture({ distinctId: 'good', event: 'ok', properties: { circular, big: 10n, fn: () => 1, nan: NaN, when: new Date(0) } });
    }
    await client.flush();
    expect(collector.events.filter((e) => e.event === 'ok')).toHaveLength(calls.length);
    expect(collector.rejections).toEqual([]);
    expect(errors).toHaveLength(calls.length);
    expect(errors.every((e) => e.name === 'InvalidEventError')).toBe(true);
    expect(errors.map((e) => e.message).join('\n')).toMatch(/event name[\s\S]*distinct id[\s\S]*properties must be a plain object[\s\S]*timestamp[\s\S]*uuid[\s\S]*over the 1000000-byte limit/);
    const sample = collector.events.find((e) => e.event === 'ok')!;
    expect(sample.properties).toMatchObject({ circular: { a: 1, me: '[Circular]' }, big: '10', nan: null, when: '1970-01-01T00:00:00.000Z' });
    const stats = client.stats();
    expect(stats.dropped).toEqual({ invalid: calls.length - 1, too_large: 1 });
  });

  it('refuses a missing or personal key at construction with a message saying what to use', () => {
    expect(() => new PostHog('')).toThrow(/project's API key/);
    expect(() => new PostHog('phx_personal')).toThrow(/personal API key/);
  });

  it('a key the server refuses (401) is reported with the reason; the events are counted as rejected', async () => {
    collector = await createCollector();
    const client = new PostHog('bad key!', { host: collector.url, flushOnExitTimeout: 0 });
    clients.push(client);
    const errors: HogtailError[] = [];
    client.on('error', (error) => errors.push(error));
    client.capture({ distinctId: 'u', event: 'e' });
    await client.flush();
    expect(errors.map((e) => e.name)).toEqual(['DroppedEventsError']);
    expect(errors[0]!.message).toMatch(/401.*project key/);
    expect(client.stats().dropped).toEqual({ rejected: 1 });
  });

  it('disable() counts events as opted_out; enable() resumes', async () => {
    const { collector, client } = await setup();
    client.disable();
    client.capture({ distinctId: 'u', event: 'hidden' });
    client.enable();
    client.capture({ distinctId: 'u', event: 'shown' });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['shown']);
    expect(client.stats().dropped).toEqual({ opted_out: 1 });
  });
});
