import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createCollector, defaultDecideResponse, type Collector, type DecideRequest } from '../../src/devserver';
import { KEY, post, postJson } from './helpers';

let collector: Collector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

const DEFAULT_ANSWER = {
  config: { enable_collect_everything: false },
  toolbarParams: {},
  errorsWhileComputingFlags: false,
  isAuthenticated: false,
  supportedCompression: ['gzip', 'gzip-js'],
  featureFlags: {},
  featureFlagPayloads: {},
};

describe('decide', () => {
  it.each(['/decide?v=3', '/decide/?v=3'])('answers POST %s with no flags by default', async (path) => {
    collector = await createCollector();
    const reply = await postJson(`${collector.url}${path}`, { token: KEY, distinct_id: 'user-1' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(JSON.parse(reply.text)).toEqual(DEFAULT_ANSWER);
    expect(defaultDecideResponse()).toEqual(DEFAULT_ANSWER);
    expect(collector.events).toHaveLength(0);
  });

  it('hands the request and headers to a custom handler and returns its answer', async () => {
    const seen: Array<{ request: DecideRequest; forwardedFor: unknown }> = [];
    collector = await createCollector({
      decide: async (request, headers) => {
        seen.push({ request, forwardedFor: headers['x-forwarded-for'] });
        return {
          ...defaultDecideResponse(),
          featureFlags: { beta: true, checkout: 'variant-b', off: false },
          featureFlagPayloads: { checkout: '{"color":"red"}' },
        };
      },
    });
    const body = {
      api_key: KEY,
      distinct_id: 'user-9',
      groups: { company: 'acme' },
      person_properties: { plan: 'pro' },
      group_properties: { company: { size: 10 } },
    };

    const reply = await postJson(`${collector.url}/decide/?v=3`, body, {
      'Content-Type': 'application/json',
      'X-Forwarded-For': '203.0.113.7',
    });

    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.text)).toMatchObject({
      featureFlags: { beta: true, checkout: 'variant-b', off: false },
      featureFlagPayloads: { checkout: '{"color":"red"}' },
    });
    expect(seen).toEqual([
      {
        request: { ...body, body, version: '3' },
        forwardedFor: '203.0.113.7',
      },
    ]);
  });

  it('takes a gzip body', async () => {
    collector = await createCollector();
    const reply = await post(
      `${collector.url}/decide/?v=3&compression=gzip-js`,
      gzipSync(JSON.stringify({ token: KEY, distinct_id: 'u' })),
      { 'Content-Type': 'text/plain' },
    );
    expect(reply.status).toBe(200);
  });

  it.each([
    ['no key', { distinct_id: 'u' }],
    ['a personal key', { api_key: 'phx_secret', distinct_id: 'u' }],
    ['a key over 64 characters', { token: `phc_${'k'.repeat(61)}`, distinct_id: 'u' }],
  ])('answers 401 for %s', async (_label, body) => {
    collector = await createCollector();
    const reply = await postJson(`${collector.url}/decide?v=3`, body);
    expect(reply.status).toBe(401);
  });

  it.each([
    ['a missing distinct_id', { token: KEY }],
    ['a blank distinct_id', { token: KEY, distinct_id: '' }],
    ['both token and api_key', { token: KEY, api_key: KEY, distinct_id: 'u' }],
    ['groups that are not an object', { token: KEY, distinct_id: 'u', groups: 'acme' }],
  ])('answers 400 for %s', async (_label, body) => {
    collector = await createCollector();
    const reply = await postJson(`${collector.url}/decide?v=3`, body);
    expect(reply.status).toBe(400);
  });

  it('answers 500 with the message when the handler throws', async () => {
    collector = await createCollector({
      decide: () => {
        throw new Error('flag store offline');
      },
    });
    const reply = await postJson(`${collector.url}/decide?v=3`, { token: KEY, distinct_id: 'u' });
    expect(reply.status).toBe(500);
    expect(reply.text).toMatch(/flag store offline/);
  });
});
