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

describe('accepting events', () => {
  it('answers a batch with 200 {"status":"Ok"} and records every event with its request context', async () => {
    const first = anEvent();
    const second = anEvent({ event: '$pageview', distinct_id: 'user-2', properties: { $current_url: 'https://a.test/' } });

    const reply = await postJson(`${collector.url}/batch/`, aBatch([first, second], { historical_migration: true }));

    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(reply.text)).toEqual({ status: 'Ok' });
    expect(collector.events).toHaveLength(2);
    expect(collector.events[0]).toMatchObject({
      uuid: first.uuid,
      event: 'clicked',
      distinct_id: 'user-1',
      properties: { plan: 'pro' },
      timestamp: '2024-05-01T10:00:00.000Z',
      sent_at: '2024-05-01T10:00:01.000Z',
      historical_migration: true,
      api_key: KEY,
      endpoint: '/batch/',
    });
    expect(collector.events[1]).toMatchObject({ event: '$pageview', distinct_id: 'user-2' });
    const { receivedAt, requestId } = collector.events[0]!;
    expect(new Date(receivedAt).toISOString()).toBe(receivedAt);
    expect(collector.events[1]!.requestId).toBe(requestId);
  });

  it('answers 204 with no body when the query says beacon=1', async () => {
    const reply = await post(`${collector.url}/e/?beacon=1&ver=1.0`, JSON.stringify(aBatch([anEvent()])), {
      'Content-Type': 'text/plain',
    });
    expect(reply.status).toBe(204);
    expect(reply.text).toBe('');
    expect(collector.events).toHaveLength(1);
  });

  it.each([
    ['/batch', '/batch/'],
    ['/batch/', '/batch/'],
    ['/capture', '/capture/'],
    ['/capture/?ip=1', '/capture/'],
    ['/e', '/e/'],
    ['/e/?ver=1.2.3&_=1714557600000', '/e/'],
    ['/i/v0/e', '/i/v0/e/'],
    ['/i/v0/e/', '/i/v0/e/'],
    ['/track', '/track/'],
    ['/track/?x=1', '/track/'],
  ])('accepts POST %s', async (path, endpoint) => {
    const reply = await postJson(`${collector.url}${path}`, { api_key: KEY, ...anEvent() });
    expect(reply.status).toBe(200);
    expect(collector.events[0]?.endpoint).toBe(endpoint);
  });

  it('takes a single event keyed by token, with no properties at all', async () => {
    const reply = await postJson(`${collector.url}/capture/`, { token: KEY, event: 'signed up', distinct_id: 'u' });
    expect(reply.status).toBe(200);
    expect(collector.events[0]).toMatchObject({ api_key: KEY, event: 'signed up', properties: {}, historical_migration: false });
    expect(collector.events[0]).not.toHaveProperty('uuid');
    expect(collector.events[0]).not.toHaveProperty('sent_at');
  });

  it('finds the distinct id at the top, as $distinct_id, or in properties, in that order', async () => {
    const events = [
      { event: 'a', distinct_id: 'top', properties: { distinct_id: 'ignored' } },
      { event: 'b', $distinct_id: 'dollar', properties: { distinct_id: 'ignored' } },
      { event: 'c', properties: { distinct_id: 'in-props', $distinct_id: 'ignored' } },
      { event: 'd', properties: { $distinct_id: 'dollar-in-props' } },
    ];
    const reply = await postJson(`${collector.url}/batch/`, aBatch(events));
    expect(reply.status).toBe(200);
    expect(collector.events.map((event) => event.distinct_id)).toEqual(['top', 'dollar', 'in-props', 'dollar-in-props']);
  });

  it('keeps capture-time $set and $set_once from the top of the event', async () => {
    await postJson(`${collector.url}/batch/`, aBatch([anEvent({ $set: { email: 'a@b.c' }, $set_once: { first: 1 } })]));
    expect(collector.events[0]).toMatchObject({ $set: { email: 'a@b.c' }, $set_once: { first: 1 } });
  });

  it('takes a bare array of events on /e/ and /i/v0/e/, keyed by properties.token', async () => {
    const events = [anEvent({ properties: { token: KEY } }), anEvent({ properties: { token: KEY } })];
    expect((await postJson(`${collector.url}/e/`, events)).status).toBe(200);
    expect((await postJson(`${collector.url}/i/v0/e/`, events)).status).toBe(200);
    expect(collector.events.map((event) => event.api_key)).toEqual([KEY, KEY, KEY, KEY]);
  });

  it('takes every body shape on every capture path, as the real service does', async () => {
    const shapes = [[anEvent({ properties: { token: KEY } })], aBatch([anEvent()]), { api_key: KEY, ...anEvent() }];
    for (const path of ['/batch/', '/capture/', '/e/', '/i/v0/e/', '/track/', '/s/']) {
      for (const shape of shapes) expect((await postJson(`${collector.url}${path}`, shape)).status, path).toBe(200);
    }
    expect(collector.events).toHaveLength(18);
  });

  it.each(['text/plain', 'text/plain;charset=UTF-8', 'application/octet-stream'])('ignores a %s content type', async (type) => {
    const reply = await post(`${collector.url}/batch/`, JSON.stringify(aBatch([anEvent()])), { 'Content-Type': type });
    expect(reply.status).toBe(200);
    expect(collector.events).toHaveLength(1);
  });

  it('keeps events in arrival order across requests and lets a test wait for them', async () => {
    const waiting = collector.waitForEvents(3);
    await postJson(`${collector.url}/batch/`, aBatch([anEvent({ event: 'one' })]));
    await postJson(`${collector.url}/batch/`, aBatch([anEvent({ event: 'two' }), anEvent({ event: 'three' })]));
    const events = await waiting;
    expect(events.map((event) => event.event)).toEqual(['one', 'two', 'three']);
    expect(collector.events[0]!.requestId).toBeLessThan(collector.events[1]!.requestId);
    expect(collector.requests).toBe(2);
  });

  it('rejects a wait that runs out with what did arrive', async () => {
    await postJson(`${collector.url}/batch/`, aBatch([anEvent({ event: '' })]));
    await expect(collector.waitForEvents(1, 20)).rejects.toThrow(/only 0 event\(s\) arrived.*1 request\(s\) rejected.*400/);
  });

  it('clear() forgets events, rejections and the request count', async () => {
    await postJson(`${collector.url}/batch/`, aBatch([anEvent()]));
    await postJson(`${collector.url}/batch/`, aBatch([anEvent({ event: '' })]));
    const events = collector.events;
    collector.clear();
    expect(collector.events).toBe(events);
    expect(collector.events).toHaveLength(0);
    expect(collector.rejections).toHaveLength(0);
    expect(collector.requests).toBe(0);
  });

  it('fails a pending wait when the collector closes', async () => {
    const waiting = collector.waitForEvents(1, 60_000);
    await collector.close();
    await expect(waiting).rejects.toThrow(/closed/);
  });

  it('tells the callbacks what it accepted and refused', async () => {
    await collector.close();
    const seen: string[] = [];
    collector = await createCollector({
      onRequest: (request) => seen.push(`request ${request.method} ${request.path}`),
      onEvents: (events) => seen.push(`events ${events.length}`),
      onReject: (rejection) => seen.push(`reject ${rejection.status}`),
    });
    await postJson(`${collector.url}/batch/`, aBatch([anEvent(), anEvent()]));
    await postJson(`${collector.url}/batch/`, { batch: [anEvent()] });
    expect(seen).toEqual(['request POST /batch/', 'events 2', 'request POST /batch/', 'reject 401']);
  });
});

describe('other paths and methods', () => {
  it('answers 404 for a path the real server does not have', async () => {
    const reply = await postJson(`${collector.url}/api/event`, aBatch([anEvent()]));
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(collector.rejections).toEqual([expect.objectContaining({ status: 404, path: '/api/event' })]);
  });

  it('answers 405 for anything but POST', async () => {
    const reply = await fetch(`${collector.url}/batch/`);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('POST, OPTIONS');
    const decide = await fetch(`${collector.url}/decide/?v=3`, { method: 'PUT', body: '{}' });
    expect(decide.status).toBe(405);
  });
});
