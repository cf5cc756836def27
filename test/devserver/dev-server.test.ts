import { gzipSync } from 'node:zlib';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DevSummary, StoredEvent } from '../../src/devserver';
import { loadFixturesFile } from '../../src/devserver/dev/fixtures';
import { createSeedFixtures, DEV_PERSONAL_API_KEY, SEED_COUNTS } from '../../src/devserver/management';
import { aBatch, anEvent, KEY, post, postJson } from './helpers';
import { devHarness, getJson } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

interface EventsReply {
  total: number;
  returned: number;
  events: StoredEvent[];
}

describe('hogtail dev: the collector rules', () => {
  it('accepts capture, batch, /e/ and /i/v0/e/ with 200 {"status":"Ok"} and stores the events', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const replies = await Promise.all([
      postJson(`${server.url}/capture/`, { api_key: KEY, ...anEvent({ event: 'via-capture' }) }),
      postJson(`${server.url}/batch/`, aBatch([anEvent({ event: 'via-batch' })])),
      postJson(`${server.url}/e/`, [{ ...anEvent({ event: 'via-e' }), properties: { token: KEY } }]),
      postJson(`${server.url}/i/v0/e/`, { api_key: KEY, ...anEvent({ event: 'via-i-v0-e' }) }),
    ]);
    for (const reply of replies) {
      expect(reply.status).toBe(200);
      expect(JSON.parse(reply.text)).toEqual({ status: 'Ok' });
    }
    const listed = await getJson<EventsReply>(`${server.url}/_dev/events`);
    expect(listed.events.map((event) => event.event).sort()).toEqual(['via-batch', 'via-capture', 'via-e', 'via-i-v0-e']);
  });

  it('answers 204 for beacon=1', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const reply = await postJson(`${server.url}/batch/?beacon=1`, aBatch([anEvent()]));
    expect(reply.status).toBe(204);
    expect(server.store.totalEvents()).toBe(1);
  });

  it.each([
    ['compression=gzip-js in the query', '/batch/?compression=gzip-js', { 'Content-Type': 'text/plain' }],
    ['Content-Encoding: gzip', '/batch/', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }],
    ['the gzip magic bytes', '/batch/', { 'Content-Type': 'text/plain' }],
  ])('recognises gzip from %s', async (_, path, headers) => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const reply = await post(`${server.url}${path}`, gzipSync(JSON.stringify(aBatch([anEvent()]))), headers);
    expect(reply.status).toBe(200);
    expect(server.store.totalEvents()).toBe(1);
  });

  it.each([
    ['a blank distinct_id', () => JSON.stringify(aBatch([anEvent({ distinct_id: ' ' })])), 400, /distinct_id is blank/],
    ['an empty event name', () => JSON.stringify(aBatch([anEvent({ event: '' })])), 400, /event name is empty/],
    [
      'a numeric timestamp',
      () => JSON.stringify(aBatch([anEvent({ timestamp: 1714557600000 })])),
      400,
      /timestamp must be an ISO 8601 string/,
    ],
    ['properties: null', () => JSON.stringify(aBatch([anEvent({ properties: null })])), 400, /properties must be an object/],
    ['a uuid that is not one', () => JSON.stringify(aBatch([anEvent({ uuid: 'nope' })])), 400, /is not a UUID/],
    ['malformed JSON', () => '{"api_key": ', 400, /malformed JSON/],
    ['no project key', () => JSON.stringify({ batch: [anEvent()] }), 401, /project API key is missing/],
    ['a personal key', () => JSON.stringify(aBatch([anEvent()], { api_key: 'phx_secret' })), 401, /personal API key/],
  ])('refuses %s, stores nothing, and prints why', async (_, body, status, reason) => {
    const { server, log } = await harness.start({ dataDir: harness.tempDir() });
    const reply = await post(`${server.url}/batch/`, body());
    expect(reply.status).toBe(status);
    expect(reply.text).toMatch(reason);
    expect(server.store.totalEvents()).toBe(0);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatch(new RegExp(`^rejected POST /batch/ with ${status}: `));
    expect(log[0]).toMatch(reason);
  });

  it('refuses a body over 20 MiB with 413', async () => {
    const { server, log } = await harness.start({ dataDir: harness.tempDir() });
    const reply = await post(`${server.url}/batch/`, new Uint8Array(20 * 1024 * 1024 + 1).fill(32));
    expect(reply.status).toBe(413);
    expect(log[0]).toMatch(/^rejected POST \/batch\/ with 413: the request body is over the 20971520 byte limit/);
  });

  it('answers 404 for unknown paths and 405 for GET on a capture path, counting them by reason', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    expect((await fetch(`${server.url}/nothing-here`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${server.url}/batch/`)).status).toBe(405);
    expect((await fetch(`${server.url}/batch/`)).status).toBe(405);
    const summary = await getJson<DevSummary>(`${server.url}/_dev/summary`);
    expect(summary.rejections.total).toBe(3);
    expect(summary.rejections.byReason).toEqual([
      { status: 405, reason: '/batch/ takes POST, not GET', count: 2 },
      expect.objectContaining({ status: 404, count: 1 }),
    ]);
  });

  it('answers CORS preflights and puts CORS headers on ingestion answers', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const preflight = await fetch(`${server.url}/e/`, { method: 'OPTIONS', headers: { Origin: 'http://app.test' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://app.test');
  });
});

describe('hogtail dev: the store', () => {
  it('keeps events across a restart on the same data directory', async () => {
    const dataDir = harness.tempDir();
    const first = await harness.start({ dataDir });
    await postJson(
      `${first.server.url}/batch/`,
      aBatch([anEvent({ event: 'before-restart', distinct_id: 'ada' }), anEvent({ event: 'second' })]),
    );
    await post(`${first.server.url}/batch/`, '{bad');
    await harness.stop(first.server);

    const second = await harness.start({ dataDir });
    const listed = await getJson<EventsReply>(`${second.server.url}/_dev/events`);
    expect(listed.total).toBe(2);
    expect(listed.events.map((event) => [event.seq, event.event, event.distinct_id])).toEqual([
      [1, 'before-restart', 'ada'],
      [2, 'second', 'user-1'],
    ]);
    expect(second.server.store.loaded).toEqual({ events: 2, rejections: 1, skippedLines: 0 });

    await postJson(`${second.server.url}/capture/`, { api_key: KEY, ...anEvent({ event: 'after-restart' }) });
    const again = await getJson<EventsReply>(`${second.server.url}/_dev/events`);
    expect(again.events.map((event) => [event.seq, event.event])).toEqual([
      [1, 'before-restart'],
      [2, 'second'],
      [3, 'after-restart'],
    ]);
  });

  it('writes NDJSON per day and skips a torn last line on load', async () => {
    const dataDir = harness.tempDir();
    const first = await harness.start({ dataDir });
    await postJson(`${first.server.url}/batch/`, aBatch([anEvent({ event: 'kept' })]));
    await harness.stop(first.server);

    const files = readdirSync(dataDir).filter((name) => name.startsWith('events-'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^events-\d{4}-\d{2}-\d{2}\.ndjson$/);
    const path = join(dataDir, files[0] ?? '');
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).event),
    ).toEqual(['kept']);
    appendFileSync(path, '{"event":"torn by a cra');

    const second = await harness.start({ dataDir });
    expect(second.server.store.loaded.skippedLines).toBe(1);
    await postJson(`${second.server.url}/batch/`, aBatch([anEvent({ event: 'after' })]));
    await harness.stop(second.server);

    const third = await harness.start({ dataDir });
    expect(third.server.store.events().map((event) => event.event)).toEqual(['kept', 'after']);
  });

  it('filters /_dev/events by event and distinct id, newest last, up to limit', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    await postJson(
      `${server.url}/batch/`,
      aBatch([
        anEvent({ event: 'a', distinct_id: 'x' }),
        anEvent({ event: 'b', distinct_id: 'x' }),
        anEvent({ event: 'a', distinct_id: 'y' }),
        anEvent({ event: 'a', distinct_id: 'x' }),
      ]),
    );
    const byEvent = await getJson<EventsReply>(`${server.url}/_dev/events?event=a`);
    expect(byEvent.events.map((event) => event.seq)).toEqual([1, 3, 4]);
    const both = await getJson<EventsReply>(`${server.url}/_dev/events?event=a&distinct_id=x`);
    expect(both.events.map((event) => event.seq)).toEqual([1, 4]);
    const limited = await getJson<EventsReply>(`${server.url}/_dev/events?limit=2`);
    expect(limited).toMatchObject({ total: 4, returned: 2 });
    expect(limited.events.map((event) => event.seq)).toEqual([3, 4]);
  });
});

describe('hogtail dev: decide from a flags file', () => {
  it('serves the flags, uses person properties from received events, and re-reads the file', async () => {
    const dataDir = harness.tempDir();
    const flagsFile = join(dataDir, 'flags.json');
    writeFileSync(
      flagsFile,
      JSON.stringify([
        { key: 'simple-flag', rollout_percentage: 45 },
        { key: 'pro', properties: [{ key: 'plan', value: 'pro' }], payloads: { true: { limit: 10 } } },
      ]),
    );
    const { server, log } = await harness.start({ dataDir, flagsFile });
    const decide = async (body: Record<string, unknown>) =>
      JSON.parse((await postJson(`${server.url}/decide/?v=3`, { token: KEY, ...body })).text) as {
        featureFlags: Record<string, unknown>;
        featureFlagPayloads: Record<string, unknown>;
      };

    expect((await decide({ distinct_id: 'distinct_id_0' })).featureFlags).toEqual({ 'simple-flag': false, pro: false });
    expect((await decide({ distinct_id: 'distinct_id_1' })).featureFlags).toEqual({ 'simple-flag': true, pro: false });

    await postJson(
      `${server.url}/batch/`,
      aBatch([anEvent({ event: '$identify', distinct_id: 'ada', properties: { $set: { plan: 'pro' } } })]),
    );
    const ada = await decide({ distinct_id: 'ada' });
    expect(ada.featureFlags['pro']).toBe(true);
    expect(ada.featureFlagPayloads).toEqual({ pro: '{"limit":10}' });
    expect((await decide({ distinct_id: 'ada', person_properties: { plan: 'free' } })).featureFlags['pro']).toBe(false);

    writeFileSync(
      flagsFile,
      JSON.stringify([
        { key: 'simple-flag', active: false },
        { key: 'late', rollout_percentage: 100 },
      ]),
    );
    expect((await decide({ distinct_id: 'distinct_id_1' })).featureFlags).toEqual({ 'simple-flag': false, late: true });
    expect(log).toContainEqual(expect.stringMatching(/^flags: reloaded 2 flag\(s\)/));

    const summary = await getJson<DevSummary>(`${server.url}/_dev/summary`);
    expect(summary.flags.definitions.map((flag) => flag.key)).toEqual(['simple-flag', 'late']);
    expect(summary.flags.users).toContainEqual(
      expect.objectContaining({ distinctId: 'distinct_id_1', source: 'decide', flags: { 'simple-flag': false, late: true } }),
    );
  });
});

describe('hogtail dev: management endpoints', () => {
  const auth = { Authorization: `Bearer ${DEV_PERSONAL_API_KEY}` };

  it('serves groups from $groupidentify events and the rest from fixtures', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    await postJson(
      `${server.url}/batch/`,
      aBatch([
        anEvent({
          event: '$groupidentify',
          properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme', seats: 5 } },
        }),
        anEvent({ event: '$groupidentify', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { seats: 7 } } }),
        anEvent({ event: '$groupidentify', properties: { $group_type: 'project', $group_key: 'p1', $group_set: { name: 'P1' } } }),
      ]),
    );
    const companies = await getJson<{ results: Array<Record<string, unknown>> }>(
      `${server.url}/api/environments/1/groups/?group_type_index=0`,
      auth,
    );
    expect(companies.results).toEqual([
      expect.objectContaining({ group_type_index: 0, group_key: 'acme', group_properties: { name: 'Acme', seats: 7 } }),
    ]);
    const found = await getJson(`${server.url}/api/environments/1/groups/find/?group_type_index=1&group_key=p1`, auth);
    expect(found).toMatchObject({ group_key: 'p1', group_properties: { name: 'P1' } });

    const subscriptions = await getJson<{ count: number; results: unknown[] }>(`${server.url}/api/environments/1/subscriptions/`, auth);
    expect(subscriptions.count).toBe(45);
    const exports = await getJson<{ results: Array<{ id: number }> }>(`${server.url}/api/environments/1/exports/?limit=1`, auth);
    expect(exports.results[0]?.id).toBeDefined();
    expect((await fetch(`${server.url}/api/environments/1/subscriptions/`)).status).toBe(401);
  });

  it('serves a fixtures file, filling what it leaves out from the seed data', async () => {
    const dataDir = harness.tempDir();
    const file = join(dataDir, 'fixtures.json');
    const seeded = createSeedFixtures({ subscriptions: 2 });
    writeFileSync(file, JSON.stringify({ subscriptions: seeded.subscriptions }));
    const { server } = await harness.start({ dataDir, fixtures: loadFixturesFile(file) });
    const subscriptions = await getJson<{ count: number }>(`${server.url}/api/environments/1/subscriptions/`, auth);
    expect(subscriptions.count).toBe(2);
    const exports = await getJson<{ count: number }>(`${server.url}/api/environments/1/exports/`, auth);
    expect(exports.count).toBe(SEED_COUNTS.exports);
  });

  it('rebuilds groups from the stored events after a restart', async () => {
    const dataDir = harness.tempDir();
    const first = await harness.start({ dataDir });
    await postJson(
      `${first.server.url}/batch/`,
      aBatch([
        anEvent({ event: '$groupidentify', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { name: 'Acme' } } }),
      ]),
    );
    await harness.stop(first.server);
    const { server } = await harness.start({ dataDir });
    const found = await getJson(`${server.url}/api/environments/1/groups/find/?group_type_index=0&group_key=acme`, auth);
    expect(found).toMatchObject({ group_properties: { name: 'Acme' } });
  });
});

describe('hogtail dev: the page and its endpoints', () => {
  it('serves the page with a nonce CSP and refuses requests addressed to other host names', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'nonce-[^']+'/);
    expect(page.headers.get('access-control-allow-origin')).toBeNull();
    const html = await page.text();
    expect(html).not.toMatch(/innerHTML/);

    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(`${server.url}/_dev/events`, { headers: { Host: 'evil.example:8010' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });

  it('streams new events over server-sent events', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    await postJson(`${server.url}/batch/`, aBatch([anEvent({ event: 'backlog' })]));
    const controller = new AbortController();
    const response = await fetch(`${server.url}/_dev/stream`, { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended before ${pattern}: ${text}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await readUntil(/event: ready/);
    expect(text).toMatch(/id: 1\nevent: events\ndata: \[\{.*"event":"backlog"/);
    await postJson(`${server.url}/batch/`, aBatch([anEvent({ event: 'live' })]));
    await readUntil(/"event":"live"/);
    expect(text).toMatch(/id: 2\nevent: events\ndata: \[\{.*"event":"live".*"seq":2/);
    controller.abort();
  });

  it('sends a page the newest events of a flood and says how many older ones it left out', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    const controller = new AbortController();
    const response = await fetch(`${server.url}/_dev/stream`, { signal: controller.signal });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    const decoder = new TextDecoder();
    let text = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const chunk = await reader.read();
        if (chunk.done) throw new Error(`stream ended before ${pattern}: ${text.slice(-500)}`);
        text += decoder.decode(chunk.value, { stream: true });
      }
    };
    await readUntil(/event: ready/);
    const flood = Array.from({ length: 1_500 }, (_, index) => anEvent({ event: `flood ${index + 1}` }));
    expect((await postJson(`${server.url}/batch/`, aBatch(flood))).status).toBe(200);
    await readUntil(/"seq":1500\}\]/);
    controller.abort();

    expect(text).toContain('event: skipped\ndata: {"count":1000,"before":1001}');
    const sent = [...text.matchAll(/"event":"flood (\d+)"/g)].map((match) => Number(match[1]));
    expect(sent).toEqual(Array.from({ length: 500 }, (_, index) => 1_001 + index));
    // Every event is stored all the same.
    expect((await getJson<EventsReply>(`${server.url}/_dev/events?limit=10000`)).returned).toBe(1_500);
  });

  it('resumes a stream from Last-Event-ID with only the events it missed', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir() });
    await postJson(`${server.url}/batch/`, aBatch([anEvent({ event: 'seen' }), anEvent({ event: 'missed' })]));
    const controller = new AbortController();
    const response = await fetch(`${server.url}/_dev/stream`, { signal: controller.signal, headers: { 'Last-Event-ID': '1' } });
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    let text = '';
    while (!text.includes('event: ready')) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += new TextDecoder().decode(chunk.value);
    }
    controller.abort();
    expect(text).toContain('"event":"missed"');
    expect(text).not.toContain('"event":"seen"');
  });
});
