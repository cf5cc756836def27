// The Node client against a real collector on 127.0.0.1: event shapes, person-profile rules,
// historical migration, bad input, and the error hook.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { PostHog, type HogtailError } from '../../src/node';
import { LIB_VERSION } from '../../src/core/version';
import { resolveOptions } from '../../src/node/options';
import { createFaultCollector } from '../support/fault-collector';

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

/** A bare HTTP server on 127.0.0.1 (for what the collector cannot play); its base URL and a closer. */
async function listenLocal(handler: http.RequestListener): Promise<{ url: string; close: () => void }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('event shapes (docs/wire-protocol.md: events, reserved events)', () => {
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
      'order placed',
      '$identify',
      '$identify',
      '$create_alias',
      '$groupidentify',
      '$groupidentify',
      '$screen',
      'survey shown',
      'survey dismissed',
      'survey sent',
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
      viewed: false,
      $identify: undefined,
      $create_alias: undefined,
      $groupidentify: undefined,
      $screen: false,
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
  it('is a gzip body announced by Content-Encoding (no query marker), api_key at the top, no token, sent_at, distinct_id at the top and in properties', async () => {
    const seen: { url: string; encoding: unknown; body: Record<string, any> }[] = [];
    const server = await listenLocal((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(gunzipSync(Buffer.concat(chunks)).toString('utf8'));
        seen.push({ url: req.url ?? '', encoding: req.headers['content-encoding'], body });
        res.end('{"status":"Ok"}');
      });
    });
    const client = new PostHog('phc_k', { host: `${server.url}/`, flushOnExitTimeout: 0 });
    client.capture({ distinctId: 'u', event: 'e' });
    await client.shutdown(5000);
    server.close();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('/batch/');
    expect(seen[0]!.encoding).toBe('gzip');
    const body = seen[0]!.body;
    expect(body.api_key).toBe('phc_k');
    expect('token' in body).toBe(false);
    expect('historical_migration' in body).toBe(false);
    expect(new Date(body.sent_at).toISOString()).toBe(body.sent_at);
    expect(body.batch[0]).toMatchObject({ event: 'e', distinct_id: 'u', properties: { distinct_id: 'u' } });
    expect(Object.keys(body.batch[0]).sort()).toEqual(['distinct_id', 'event', 'properties', 'timestamp', 'uuid']);
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
    const proxy = await listenLocal((req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const forward = http.request(original + req.url, { method: req.method, headers: req.headers }, (upstream) => {
        res.writeHead(upstream.statusCode ?? 500, upstream.headers);
        upstream.pipe(res).on('finish', () => inFlight--);
      });
      req.pipe(forward);
    });
    const viaProxy = new PostHog('phc_test_key', {
      host: proxy.url,
      historicalMigration: true,
      flushAt: 7,
      maxBatchSize: 7,
      flushOnExitTimeout: 0,
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
    expect(errors.map((e) => e.message).join('\n')).toMatch(
      /event name[\s\S]*distinct id[\s\S]*properties must be a plain object[\s\S]*timestamp[\s\S]*uuid[\s\S]*over the 1000000-byte limit/,
    );
    const sample = collector.events.find((e) => e.event === 'ok')!;
    expect(sample.properties).toMatchObject({
      circular: { a: 1, me: '[Circular]' },
      big: '10',
      nan: null,
      when: '1970-01-01T00:00:00.000Z',
    });
    const stats = client.stats();
    expect(stats.dropped).toEqual({ invalid: calls.length - 1, too_large: 1 });
  });

  it('refuses a missing or personal key at construction with a message saying what to use', () => {
    expect(() => new PostHog('')).toThrow(/project's API key/);
    expect(() => new PostHog('phx_personal')).toThrow(/personal API key/);
  });

  it('a key the server refuses (401) is reported with the reason; the events are counted as rejected', async () => {
    collector = await createFaultCollector({ plan: () => ({ kind: 'status', status: 401 }) });
    const client = new PostHog('phc_revoked', { host: collector.url, flushOnExitTimeout: 0 });
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

describe('order, refusals and reports', () => {
  it('an event waiting for its flags keeps its place: later events queue behind it (historical migration order)', async () => {
    collector = await createCollector({ decide: () => ({ featureFlags: { beta: true }, featureFlagPayloads: {} }) as never });
    const client = new PostHog('phc_k', { host: collector.url, flushAt: 1000, flushOnExitTimeout: 0, historicalMigration: true });
    clients.push(client);
    client.capture({ distinctId: 'u1', event: 'first', sendFeatureFlags: true });
    client.capture({ distinctId: 'u1', event: 'second' });
    client.identify({ distinctId: 'u1', properties: { plan: 'pro' } });
    client.capture({ distinctId: 'u2', event: 'third', sendFeatureFlags: true });
    client.capture({ distinctId: 'u2', event: 'fourth' });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['first', 'second', '$identify', 'third', 'fourth']);
    expect(collector.events[0]!.properties['$feature/beta']).toBe(true);
    expect(collector.events[1]!.properties['$feature/beta']).toBeUndefined();
  });

  it('events still waiting for flags at the shutdown deadline are reported with their uuids', async () => {
    const hanging = await createFaultCollector({ plan: (_index, info) => (info.path.startsWith('/flags') ? { kind: 'hang' } : undefined) });
    collector = hanging;
    const client = new PostHog('phc_k', { host: hanging.url, flushAt: 1, flushOnExitTimeout: 0 });
    const errors: HogtailError[] = [];
    client.on('error', (error) => errors.push(error));
    const uuid = '0190a0a0-0000-7000-8000-000000000001';
    client.capture({ distinctId: 'u1', event: 'waits', sendFeatureFlags: true, uuid });
    client.capture({ distinctId: 'u1', event: 'behind it' });
    await client.shutdown(300);
    const dropped = errors.filter((e) => e.name === 'DroppedEventsError') as Array<HogtailError & { reason: string; uuids: string[] }>;
    expect(dropped).toHaveLength(1);
    expect(dropped[0]!.reason).toBe('shutdown');
    expect(dropped[0]!.uuids).toHaveLength(2);
    expect(dropped[0]!.uuids[0]).toBe(uuid);
    expect(client.stats().dropped).toEqual({ shutdown: 2 });
    expect(hanging.events).toEqual([]);
  });

  it('identify: keys beside $set go to $set too; properties that are not an object are refused, not spread', async () => {
    const { collector, client, errors } = await setup();
    client.identify({ distinctId: 'u1', properties: { $set: { plan: 'pro' }, email: 'a@example.com' } });
    client.identify({ distinctId: 'u1', properties: 'abc' as never });
    client.screen({ distinctId: 'u1', name: 'Home', properties: 'tab=2' as never });
    client.surveyShown({ distinctId: 'u1', surveyId: 'sv', properties: [1] as never });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['$identify']);
    expect(collector.events[0]!.properties.$set).toEqual({ plan: 'pro', email: 'a@example.com' });
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/identify\(\) properties must be an object; got string/),
      expect.stringMatching(/screen\(\) properties must be an object; got string/),
      expect.stringMatching(/survey shown properties must be an object; got object/),
    ]);
    expect(client.stats().dropped).toEqual({ invalid: 3 });
  });

  it('a disabled client reports its first dropped event once per disabled period, and counts every one', async () => {
    const { collector, client, errors } = await setup({ disabled: true });
    for (let i = 0; i < 3; i++) client.capture({ distinctId: 'u', event: 'hidden' });
    client.enable();
    client.capture({ distinctId: 'u', event: 'shown' });
    client.disable();
    client.capture({ distinctId: 'u', event: 'hidden again' });
    await client.flush();
    expect(collector.events.map((e) => e.event)).toEqual(['shown']);
    const reports = errors.filter((e) => (e as { reason?: string }).reason === 'opted_out');
    expect(reports).toHaveLength(2);
    expect(reports[0]!.message).toMatch(/capture is disabled.*Call enable\(\)/);
    expect(client.stats().dropped).toEqual({ opted_out: 4 });
  });

  it("a historical migration keeps the source's $lib and $lib_version; other events get hogtail's", async () => {
    const { collector, client } = await setup({ historicalMigration: true });
    client.capture({ distinctId: 'u', event: 'old', properties: { $lib: 'web', $lib_version: '1.2.3' } });
    client.capture({ distinctId: 'u', event: 'plain' });
    await client.flush();
    expect(collector.events.map((e) => [e.properties.$lib, e.properties.$lib_version])).toEqual([
      ['web', '1.2.3'],
      ['hogtail-node', LIB_VERSION],
    ]);
  });

  it('a host that redirects is refused in one request with what to fix, not split event by event', async () => {
    let requests = 0;
    const server = await listenLocal((req, res) => {
      requests++;
      req.resume();
      req.on('end', () => {
        res.writeHead(301, { Location: 'https://elsewhere.example/batch/' });
        res.end();
      });
    });
    const client = new PostHog('phc_k', { host: server.url, flushAt: 1000, flushOnExitTimeout: 0 });
    const errors: HogtailError[] = [];
    client.on('error', (error) => errors.push(error));
    for (let i = 0; i < 8; i++) client.capture({ distinctId: 'u', event: `e${i}` });
    await client.shutdown(5000);
    server.close();
    expect(requests).toBe(1);
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/8 event\(s\) dropped.*301.*check the host/)]);
    expect(client.stats().dropped).toEqual({ rejected: 8 });
  });

  it('maxBatchBytes is capped so a request stays under the 20 MiB wire limit whatever the text', () => {
    const problems: string[] = [];
    expect(resolveOptions({ maxBatchBytes: 50_000_000 }, problems).maxBatchBytes).toBe(6_000_000);
    expect(problems.join()).toMatch(/maxBatchBytes 50000000 could make a request over the server's 20 MiB cap; using 6000000/);
    expect(resolveOptions({}, []).maxBatchBytes).toBe(5_000_000);
  });
});
