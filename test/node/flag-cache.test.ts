// The server flag cache against a real collector serving decide on 127.0.0.1 (its /flags answers
// 404, so every lookup also goes through the fall-back to decide).
import { afterEach, expect, it } from 'vitest';
import { createFlagsClient } from '../../src/core/flags/flags-client';
import { createFlagCache } from '../../src/core/server/flag-cache';
import { createNodeExecutor } from '../../src/node/http-executor';
import { createCollector, type Collector } from '../../src/devserver';
import type { HogtailError } from '../../src/core/errors';

let collector: Collector | undefined;
const executor = createNodeExecutor();
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

async function setup(answer: (distinctId: string, call: number) => Record<string, unknown>, ttlMs = 60_000) {
  const calls: { distinctId: string; forwardedFor: unknown; person: unknown }[] = [];
  collector = await createCollector({
    decide: (request, headers) => {
      calls.push({ distinctId: request.distinct_id, forwardedFor: headers['x-forwarded-for'], person: request.person_properties });
      return { featureFlags: {}, featureFlagPayloads: {}, ...answer(request.distinct_id, calls.length) } as never;
    },
  });
  const errors: HogtailError[] = [];
  let clock = 0;
  const flags = createFlagsClient({
    host: collector.url,
    apiKey: 'phc_k',
    executor: executor.execute,
    timeoutMs: 5000,
    retry: { initialDelayMs: 1 },
  });
  const cache = createFlagCache({
    flags,
    ttlMs,
    maxEntries: 100,
    onError: (error) => errors.push(error),
    now: () => clock,
  });
  return { cache, calls, errors, advance: (ms: number) => (clock += ms) };
}

it('one decide request per user per TTL, shared by concurrent lookups', async () => {
  const { cache, calls, advance } = await setup((id) => ({ featureFlags: { beta: id === 'u1' } }));
  const results = await Promise.all([cache.get('u1'), cache.get('u1'), cache.get('u2')]);
  expect(results.map((r) => r?.flags.beta)).toEqual([true, true, false]);
  for (let i = 0; i < 50; i++) await cache.get(i % 2 ? 'u1' : 'u2');
  expect(calls.map((c) => c.distinctId).sort()).toEqual(['u1', 'u2']);
  advance(60_001);
  await cache.get('u1');
  expect(calls).toHaveLength(3);
  expect(cache.decideRequests).toBe(3);
});

it('overrides and ip are part of the key; ip goes out as X-Forwarded-For', async () => {
  const { cache, calls } = await setup(() => ({ featureFlags: { a: true } }));
  await cache.get('u1', { personProperties: { plan: 'pro' }, ip: '203.0.113.9' });
  await cache.get('u1', { personProperties: { plan: 'free' } });
  await cache.get('u1', { personProperties: { plan: 'pro' }, ip: '203.0.113.9' });
  expect(calls).toHaveLength(2);
  expect(calls[0]).toMatchObject({ forwardedFor: '203.0.113.9', person: { plan: 'pro' } });
  expect(calls[1]!.forwardedFor).toBeUndefined();
});

it('errorsWhileComputingFlags merges; quotaLimited keeps; a failure keeps the last good flags and reports', async () => {
  const { cache, advance, errors } = await setup((_, call) =>
    call === 1
      ? { featureFlags: { a: true, b: 'x' } }
      : call === 2
        ? { featureFlags: { a: false }, errorsWhileComputingFlags: true }
        : call === 3
          ? { featureFlags: {}, quotaLimited: ['feature_flags'] }
          : { featureFlags: 'not an object', broken: true },
  );
  expect((await cache.get('u'))?.flags).toEqual({ a: true, b: 'x' });
  advance(60_001);
  expect((await cache.get('u'))?.flags).toEqual({ a: false, b: 'x' });
  advance(60_001);
  expect((await cache.get('u'))?.flags).toEqual({ a: false, b: 'x' });
  await collector!.close();
  advance(60_001);
  expect((await cache.get('u'))?.flags).toEqual({ a: false, b: 'x' });
  expect(errors).toHaveLength(1);
  expect(errors[0]!.message).toMatch(/could not be loaded.*last good flags/);
});

it('a flag named toString is kept through a partial answer with errors, like any other flag', async () => {
  // Text, as a server sends it; the second answer has errors and lacks the flag: keep what was known.
  const { cache, advance } = await setup((_, call) =>
    call === 1
      ? { featureFlags: JSON.parse('{"toString": "a", "constructor": true}') as Record<string, unknown> }
      : { errorsWhileComputingFlags: true },
  );
  expect(Object.keys((await cache.get('u1', {}, ['toString']))!.flags).sort()).toEqual(['constructor', 'toString']);
  advance(60_001);
  const after = await cache.get('u1', {}, ['toString']);
  expect(Object.getOwnPropertyDescriptor(after!.flags, 'toString')?.value).toBe('a');
});
