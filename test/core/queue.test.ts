// The queue's policy (batching, order, splitting, retry, eviction, flush, close), driven by a
// scripted sender in-process. The HTTP side is covered against a real server in test/node.
import { describe, expect, it, vi } from 'vitest';
import type { DroppedEventsError, TransportError } from '../../src/core/errors';
import type { QueuedEvent } from '../../src/core/event';
import { createQueue, type QueueOptions } from '../../src/core/queue';
import type { DeliveryResult } from '../../src/core/transport';
import { TEST_QUEUE_OPTIONS } from '../support/queue-options';

const event = (n: number): QueuedEvent => ({ uuid: `u${n}`, json: `{"n":${n}}` });

function harness(
  script: (batch: readonly QueuedEvent[], call: number) => DeliveryResult | Promise<DeliveryResult>,
  overrides: Partial<QueueOptions> = {},
) {
  const requests: string[][] = [];
  const drops: DroppedEventsError[] = [];
  const retries: TransportError[] = [];
  const delivered: string[] = [];
  const queue = createQueue({
    ...TEST_QUEUE_OPTIONS,
    onDrop_: (error) => drops.push(error),
    onRetry_: (error) => retries.push(error),
    ...overrides,
    send_: async (batch) => {
      const uuids = batch.map((e) => e.uuid);
      requests.push(uuids);
      const result = await script(batch, requests.length);
      if (result.kind === 'ok') delivered.push(...uuids);
      return result;
    },
  });
  return { queue, requests, drops, retries, delivered };
}

const ok: DeliveryResult = { kind: 'ok' };

describe('queue', () => {
  it('sends nothing below flushAt until the interval passes, then sends everything in order', async () => {
    const h = harness(() => ok);
    for (let i = 0; i < 3; i++) h.queue.enqueue(event(i));
    await Promise.resolve();
    expect(h.requests).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(h.delivered).toEqual(['u0', 'u1', 'u2']);
  });

  it('starts a request at flushAt and keeps one request in flight, batching what arrives meanwhile', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const h = harness(async () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight--;
      return ok;
    });
    for (let i = 0; i < 250; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(maxInFlight).toBe(1);
    expect(h.delivered).toEqual(Array.from({ length: 250 }, (_, i) => `u${i}`));
    expect(h.requests.every((r) => r.length <= 100)).toBe(true);
  });

  it('respects maxBatchBytes, but always sends at least one event', async () => {
    const h = harness(() => ok, { maxBatchBytes_: 20 });
    for (let i = 0; i < 6; i++) h.queue.enqueue(event(i)); // each about 8 characters
    await h.queue.flush();
    expect(h.requests.map((r) => r.length)).toEqual([2, 2, 2]);
    const big = harness(() => ok, { maxBatchBytes_: 1 });
    big.queue.enqueue(event(1));
    await big.queue.flush();
    expect(big.requests).toEqual([['u1']]);
  });

  it('a 400 is answered by splitting until the bad event is alone; every other event is delivered, in order', async () => {
    const bad = new Set(['u13', 'u77']);
    const h = harness((batch) => (batch.some((e) => bad.has(e.uuid)) ? { kind: 'split', status: 400, message: 'bad event' } : ok));
    for (let i = 0; i < 100; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    const expected = Array.from({ length: 100 }, (_, i) => `u${i}`).filter((u) => !bad.has(u));
    expect(h.delivered).toEqual(expected);
    expect(h.drops.map((d) => [d.reason, d.uuids, d.status])).toEqual([
      ['rejected', ['u13'], 400],
      ['rejected', ['u77'], 400],
    ]);
    expect(h.drops[0]!.message).toMatch(/bad event/);
    // Isolation is logarithmic, not one request per event.
    expect(h.requests.length).toBeLessThan(30);
  });

  it('a 413 splits too; a single event that is still too large is dropped as too_large', async () => {
    const h = harness((batch) =>
      batch.length > 10 || batch.some((e) => e.uuid === 'u3') ? { kind: 'split', status: 413, message: 'too big' } : ok,
    );
    for (let i = 0; i < 40; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(h.delivered).toHaveLength(39);
    expect(h.drops.map((d) => [d.reason, d.uuids])).toEqual([['too_large', ['u3']]]);
  });

  it('retries transient failures with the same events in the same order, and honours Retry-After', async () => {
    const h = harness((_, call) =>
      call === 1
        ? { kind: 'retry', status: 503, message: 'down' }
        : call === 2
          ? { kind: 'retry', status: 429, message: 'slow down', retryAfterMs: 30 }
          : ok,
    );
    for (let i = 0; i < 5; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(h.requests).toHaveLength(3);
    expect(h.requests[0]).toEqual(h.requests[2]);
    expect(h.retries.map((r) => [r.status, r.attempt])).toEqual([
      [503, 1],
      [429, 2],
    ]);
    expect(h.retries[1]!.retryInMs).toBe(30);
    expect(h.drops).toEqual([]);
  });

  it('waits out Retry-After and the backoff before the next attempt, never less (fake clock)', async () => {
    vi.useFakeTimers();
    try {
      const h = harness(
        (_, call) =>
          call === 1
            ? { kind: 'retry', status: 429, message: 'slow down', retryAfterMs: 7_000 }
            : call === 2
              ? { kind: 'retry', status: 503, message: 'down' }
              : ok,
        { retry_: { initialDelayMs: 1_000, maxDelayMs: 30_000, maxAttempts: 10 }, random_: () => 0 },
      );
      for (let i = 0; i < 5; i++) h.queue.enqueue(event(i));
      await vi.advanceTimersByTimeAsync(0);
      expect(h.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(6_999);
      expect(h.requests).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.requests).toHaveLength(2);
      // Second consecutive failure: 2 × 1,000 ms, jittered down to half by random() = 0.
      await vi.advanceTimersByTimeAsync(999);
      expect(h.requests).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(h.requests).toHaveLength(3);
      expect(h.delivered).toEqual(['u0', 'u1', 'u2', 'u3', 'u4']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a rejected key or host drops the batch with the reason, and the queue goes on', async () => {
    const h = harness((_, call) => (call === 1 ? { kind: 'reject', status: 401, message: 'bad key' } : ok));
    for (let i = 0; i < 5; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    h.queue.enqueue(event(99));
    await h.queue.flush();
    expect(h.drops[0]!.reason).toBe('rejected');
    expect(h.drops[0]!.count).toBe(5);
    expect(h.delivered).toEqual(['u99']);
    expect(h.queue.stats().dropped).toEqual({ rejected: 5 });
  });

  it('evicts the oldest waiting events when full and reports them once, counted', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const h = harness(
      async () => {
        await gate;
        return ok;
      },
      { maxQueueSize_: 10, flushAt_: 1000 },
    );
    for (let i = 0; i < 25; i++) h.queue.enqueue(event(i));
    const flushed = h.queue.flush();
    release();
    await flushed;
    expect(h.delivered).toEqual(Array.from({ length: 10 }, (_, i) => `u${i + 15}`));
    expect(h.drops).toHaveLength(1);
    expect(h.drops[0]!.reason).toBe('queue_full');
    expect(h.drops[0]!.count).toBe(15);
    expect(h.queue.stats().dropped.queue_full).toBe(15);
  });

  it('evicts by bytes as well as by count', async () => {
    const h = harness(() => ok, { maxQueueBytes_: 40, flushAt_: 1000 });
    for (let i = 0; i < 10; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(h.queue.stats().dropped.queue_full).toBeGreaterThan(0);
    expect(h.delivered.length + h.queue.stats().dropped.queue_full!).toBe(10);
  });

  it('flush() resolves when retries stall, keeping the events queued; close() then reports them', async () => {
    const h = harness(() => ({ kind: 'retry', status: 503, message: 'down' }), {
      retry_: { initialDelayMs: 1, maxDelayMs: 2, maxAttempts: 3 },
    });
    for (let i = 0; i < 5; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(h.requests.length).toBeGreaterThanOrEqual(3);
    expect(h.queue.pending).toBe(5);
    h.queue.close();
    expect(h.drops.map((d) => [d.reason, d.count])).toEqual([['shutdown', 5]]);
    expect(h.queue.stats().dropped.shutdown).toBe(5);
  });

  it('restore() puts earlier events first and flush waits for them', async () => {
    const h = harness(() => ok, { flushAt_: 1000 });
    h.queue.enqueue(event(10));
    h.queue.restore([event(1), event(2)]);
    await h.queue.flush();
    expect(h.delivered).toEqual(['u1', 'u2', 'u10']);
  });

  it('tells persistence of every event added and every event settled, never of shutdown leftovers', async () => {
    const appended: string[] = [];
    const removed: string[] = [];
    const h = harness((batch) => (batch.some((e) => e.uuid === 'u2') ? { kind: 'split', status: 400, message: 'x' } : ok), {
      persistence_: { appended: (e) => appended.push(e.uuid), removed: (es) => removed.push(...es.map((e) => e.uuid)) },
    });
    for (let i = 0; i < 6; i++) h.queue.enqueue(event(i));
    await h.queue.flush();
    expect(appended).toEqual(['u0', 'u1', 'u2', 'u3', 'u4', 'u5']);
    expect([...removed].sort()).toEqual([...appended].sort());
    const stuck = harness(() => ({ kind: 'retry', message: 'down' }), {
      retry_: { initialDelayMs: 1, maxDelayMs: 1, maxAttempts: 1 },
      persistence_: { appended: () => undefined, removed: (es) => removed.push(...es.map((e) => 'stuck' + e.uuid)) },
    });
    stuck.queue.enqueue(event(1));
    await stuck.queue.flush();
    stuck.queue.close();
    expect(removed.filter((u) => u.startsWith('stuck'))).toEqual([]);
  });

  it('an event enqueued after close() is reported, not lost silently', () => {
    const h = harness(() => ok);
    h.queue.close();
    h.queue.enqueue(event(1));
    expect(h.drops.map((d) => [d.reason, d.uuids])).toEqual([['shutdown', ['u1']]]);
  });

  it('discard(): what waits is dropped at once; the request in flight is dropped if it comes back unsent, delivered if not; later events go as usual', async () => {
    const removed: string[] = [];
    let answer: (result: DeliveryResult) => void = () => {};
    const h = harness((batch) => (batch[0]!.uuid === 'u0' ? new Promise<DeliveryResult>((resolve) => (answer = resolve)) : ok), {
      flushAt_: 1,
      persistence_: { appended: () => undefined, removed: (es) => removed.push(...es.map((e) => e.uuid)) },
    });
    h.queue.enqueue(event(0)); // in flight, unanswered
    await new Promise((resolve) => setTimeout(resolve, 0));
    for (let i = 1; i < 4; i++) h.queue.enqueue(event(i));
    h.queue.discard('opted_out', 'opted out');
    expect(h.drops.map((d) => [d.reason, d.uuids, d.message])).toEqual([
      ['opted_out', ['u1', 'u2', 'u3'], '3 event(s) not sent: opted out'],
    ]);
    answer({ kind: 'retry', message: 'down' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(h.drops.map((d) => d.uuids)).toEqual([['u1', 'u2', 'u3'], ['u0']]);
    expect(h.queue.stats()).toMatchObject({ dropped: { opted_out: 4 }, pending: 0 });
    expect([...removed].sort()).toEqual(['u0', 'u1', 'u2', 'u3']);
    h.queue.enqueue(event(4));
    await h.queue.flush();
    expect(h.delivered).toEqual(['u4']);
    expect(h.requests).toEqual([['u0'], ['u4']]);

    // A request in flight that succeeds is delivered, not dropped.
    const later = harness((batch) => (batch[0]!.uuid === 'u0' ? new Promise<DeliveryResult>((resolve) => (answer = resolve)) : ok), {
      flushAt_: 1,
    });
    later.queue.enqueue(event(0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    later.queue.discard('opted_out', 'opted out');
    answer(ok);
    await later.queue.flush();
    expect(later.delivered).toEqual(['u0']);
    expect(later.drops).toEqual([]);
  });
});
