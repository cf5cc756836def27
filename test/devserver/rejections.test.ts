import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCollector, type Collector } from '../../src/devserver';
import { KEY, aBatch, anEvent, post, postJson } from './helpers';

let collector: Collector;
beforeEach(async () => {
  collector = await createCollector();
});
afterEach(async () => {
  await collector.close();
});

describe('400: the body or one of its events is bad', () => {
  it('refuses malformed JSON in plain text', async () => {
    const reply = await post(`${collector.url}/batch/`, '{"api_key": "phc_x", "batch": [');
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(reply.text).toMatch(/malformed JSON/);
  });

  it('refuses an empty body', async () => {
    const reply = await post(`${collector.url}/batch/`, '');
    expect(reply.status).toBe(400);
  });

  it('refuses a body with both token and api_key', async () => {
    const reply = await postJson(`${collector.url}/capture/`, { ...anEvent(), api_key: KEY, token: KEY });
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/both token and api_key/);
  });

  it('refuses an event with both distinct_id and $distinct_id', async () => {
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent({ $distinct_id: 'user-1' })]));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/index 0 has both distinct_id and \$distinct_id/);
  });

  it.each([
    ['an empty event name', { event: '' }, /event name is empty/],
    ['a missing event name', { event: undefined }, /event must be a non-empty string, got undefined/],
    ['a non-string event name', { event: 42 }, /event must be a non-empty string, got number/],
    ['a missing distinct id', { distinct_id: undefined }, /distinct_id is missing/],
    ['a blank distinct id', { distinct_id: '   ' }, /distinct_id is blank/],
    ['a numeric distinct id', { distinct_id: 7 }, /distinct_id must be a string, got number/],
    ['null properties', { properties: null }, /properties must be an object, got null/],
    ['array properties', { properties: [1] }, /properties must be an object, got an array/],
    ['a numeric timestamp', { timestamp: 1714557600000 }, /timestamp must be an ISO 8601 string, got number/],
    ['an unparseable timestamp', { timestamp: 'yesterday' }, /timestamp "yesterday" is not a parseable date/],
    ['a uuid that is not a UUID', { uuid: 'abc-123' }, /uuid "abc-123" is not a UUID/],
    ['a numeric uuid', { uuid: 12 }, /uuid 12 is not a UUID/],
    ['an event that is not an object', null, /must be an object, got null/],
  ])('refuses the whole request for %s, naming the event', async (_label, overrides, message) => {
    const bad = overrides === null ? null : anEvent(overrides);
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent(), anEvent(), bad]));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/event at index 2/);
    expect(reply.text).toMatch(message);
    expect(collector.events).toHaveLength(0);
    expect(collector.rejections).toEqual([expect.objectContaining({ status: 400, path: '/batch/', reason: reply.text })]);
  });

  it('one bad event fails the request; the good ones are recorded only when resent alone', async () => {
    const good = [anEvent(), anEvent()];
    const bad = anEvent({ properties: null });
    expect((await postJson(`${collector.url}/batch/`, aBatch([good[0], bad, good[1]]))).status).toBe(400);
    expect(collector.events).toHaveLength(0);

    expect((await postJson(`${collector.url}/batch/`, aBatch(good))).status).toBe(200);
    expect(collector.events.map((event) => event.uuid)).toEqual(good.map((event) => event.uuid));
  });

  it('refuses an empty batch', async () => {
    const reply = await postJson(`${collector.url}/batch/`, aBatch([]));
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/batch is empty/);
  });
});

describe('401: the project key is missing, malformed or personal', () => {
  it.each([
    ['missing', { batch: [anEvent()] }, /missing/],
    ['not a string', aBatch([anEvent()], { api_key: 12345 }), /must be a string/],
    ['empty', aBatch([anEvent()], { api_key: '' }), /is empty/],
    ['only whitespace', aBatch([anEvent()], { api_key: ' \t ' }), /is empty/],
    ['over 64 characters', aBatch([anEvent()], { api_key: `phc_${'a'.repeat(61)}` }), /65 characters long; a project key has at most 64/],
    ['not ASCII', aBatch([anEvent()], { api_key: 'phc_ключ' }), /outside ASCII/],
    ['carrying a NUL', aBatch([anEvent()], { api_key: 'phc_ab\u0000cd' }), /NUL/],
    ['a personal key behind whitespace', aBatch([anEvent()], { api_key: '  phx_personalKey123' }), /personal API key/],
    ['a personal key', aBatch([anEvent()], { api_key: 'phx_personalKey123' }), /personal API key/],
    ['sent as token on a batch', { token: KEY, batch: [anEvent()] }, /api_key, not token/],
  ])('answers 401 when the key is %s', async (_label, body, message) => {
    const reply = await postJson(`${collector.url}/batch/`, body);
    expect(reply.status).toBe(401);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(reply.text).toMatch(message);
    expect(collector.events).toHaveLength(0);
  });

  it('answers 401 for a bare array where no event carries a key', async () => {
    const reply = await postJson(`${collector.url}/batch/`, [anEvent(), anEvent()]);
    expect(reply.status).toBe(401);
    expect(reply.text).toMatch(/no event in the array carries a project key/);
  });

  it('takes the key an array carries for its events that carry none', async () => {
    const reply = await postJson(`${collector.url}/e/`, [anEvent({ properties: { token: KEY } }), anEvent()]);
    expect(reply.status).toBe(200);
    expect(collector.events.map((event) => event.api_key)).toEqual([KEY, KEY]);
  });

  it('trims whitespace around the key, accepts a 64-character one and any ASCII', async () => {
    const long = `phc_${'a'.repeat(60)}`;
    for (const key of [`  ${KEY}\n`, long, 'phc key with spaces']) {
      expect((await postJson(`${collector.url}/batch/`, aBatch([anEvent()], { api_key: key }))).status).toBe(200);
    }
    expect(collector.events.map((event) => event.api_key)).toEqual([KEY, long, 'phc key with spaces']);
  });

  it('answers 401 for a single event with a personal key as token', async () => {
    const reply = await postJson(`${collector.url}/capture/`, { token: 'phx_abc', ...anEvent() });
    expect(reply.status).toBe(401);
  });
});

describe('413: too large', () => {
  it('refuses a request body over 20 MiB', async () => {
    const padding = 'x'.repeat(21 * 1024 * 1024);
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent({ properties: { padding } })]));
    expect(reply.status).toBe(413);
    expect(reply.text).toMatch(/20971520 byte limit/);
    expect(collector.events).toHaveLength(0);
  });

  it('stops at the configured cap while a chunked body is still streaming, and the connection stays usable', async () => {
    await collector.close();
    collector = await createCollector({ maxBodyBytes: 4096 });
    const chunk = Buffer.alloc(1024, 0x20);

    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      // No Content-Length: the collector can only find out by counting.
      const req = request(`${collector.url}/batch/`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
      req.on('error', reject);
      req.on('response', (res) => {
        const parts: Buffer[] = [];
        res.on('data', (part: Buffer) => parts.push(part));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(parts).toString() }));
      });
      for (let i = 0; i < 16; i += 1) req.write(chunk);
      req.end();
    });

    expect(answer.status).toBe(413);
    expect(answer.text).toMatch(/4096 byte limit/);
    expect((await postJson(`${collector.url}/batch/`, aBatch([anEvent()]))).status).toBe(200);
  });

  it('refuses a request carrying one event over 1,000,000 bytes serialised', async () => {
    const big = anEvent({ properties: { blob: 'y'.repeat(1_000_000) } });
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent(), big]));
    expect(reply.status).toBe(413);
    expect(reply.text).toMatch(/event at index 1 is \d+ bytes serialised, over the 1000000 byte limit/);
    expect(collector.events).toHaveLength(0);
  });

  it('takes an event just under the limit', async () => {
    const event = anEvent({ properties: {} });
    const room = 1_000_000 - Buffer.byteLength(JSON.stringify({ ...event, properties: { blob: '' } }));
    const reply = await postJson(`${collector.url}/batch/`, aBatch([{ ...event, properties: { blob: 'z'.repeat(room) } }]));
    expect(reply.status).toBe(200);
  });

  it('uses a configured per-event cap', async () => {
    await collector.close();
    collector = await createCollector({ maxEventBytes: 500 });
    const reply = await postJson(`${collector.url}/batch/`, aBatch([anEvent({ properties: { blob: 'y'.repeat(600) } })]));
    expect(reply.status).toBe(413);
    expect(reply.text).toMatch(/500 byte limit/);
  });
});
