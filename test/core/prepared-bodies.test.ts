// Building batch n+1 while batch n is in flight: the queue announces exactly what it will send next
// (and then sends exactly that), and a prepared body is used only for those events while fresh.
import { describe, expect, it } from 'vitest';
import { createBatchSender } from '../../src/core/batch-sender';
import type { QueuedEvent } from '../../src/core/event';
import { createPreparedBodies, MAX_PREPARED_AGE_MS } from '../../src/core/prepared-bodies';
import { createQueue } from '../../src/core/queue';
import type { DeliveryResult } from '../../src/core/transport';
import { TEST_QUEUE_OPTIONS } from '../support/queue-options';

const event = (n: number): QueuedEvent => ({ uuid: `u${n}`, json: `{"n":${n}}` });
const ok: DeliveryResult = { kind: 'ok' };

/** A queue whose requests wait until the test answers them, one at a time. */
function gatedQueue() {
  const requests: string[][] = [];
  const announced: string[][] = [];
  const answers: Array<(result: DeliveryResult) => void> = [];
  const queue = createQueue({
    ...TEST_QUEUE_OPTIONS,
    flushAt_: 10,
    flushIntervalMs_: 60_000,
    onDrop_: () => {},
    send_: (batch) => {
      requests.push(batch.map((e) => e.uuid));
      return new Promise((resolve) => answers.push(resolve));
    },
    lookahead_: (events) => announced.push(events.map((e) => e.uuid)),
  });
  /** Answers the oldest request and waits for what follows: the next request (after a retry's backoff), or nothing left. */
  const answer = async (result: DeliveryResult) => {
    const before = requests.length;
    answers.shift()!(result);
    for (const deadline = Date.now() + 10_000; requests.length === before && queue.stats().pending > 0 && Date.now() < deadline; )
      await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return { queue, requests, announced, answer };
}

const ids = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `u${from + i}`);

describe('queue lookahead', () => {
  it('announces the next request while one is in flight, then sends exactly it, even if more arrive meanwhile', async () => {
    const q = gatedQueue();
    for (let i = 0; i < 150; i++) q.queue.enqueue(event(i));
    await Promise.resolve();
    expect(q.requests).toEqual([ids(0, 100)]);
    expect(q.announced).toEqual([ids(100, 150)]);
    // Captured while request 1 is out: they would have joined request 2 without the announcement.
    for (let i = 150; i < 170; i++) q.queue.enqueue(event(i));
    await q.answer(ok);
    expect(q.requests[1]).toEqual(ids(100, 150));
    expect(q.announced[1]).toEqual(ids(150, 170));
    await q.answer(ok);
    expect(q.requests[2]).toEqual(ids(150, 170));
    await q.answer(ok);
    expect(q.queue.stats()).toMatchObject({ delivered: 170, pending: 0 });
  });

  it('after a retry the front is the failed batch again: it goes first, and the announcement is void', async () => {
    const q = gatedQueue();
    for (let i = 0; i < 250; i++) q.queue.enqueue(event(i));
    await Promise.resolve();
    expect(q.announced).toEqual([ids(100, 200)]);
    await q.answer({ kind: 'retry', message: 'busy' });
    expect(q.requests[1]).toEqual(ids(0, 100));
    await q.answer(ok);
    expect(q.requests[2]).toEqual(ids(100, 200));
    await q.answer(ok);
    await q.answer(ok);
    expect(q.requests.slice(1).flat()).toEqual(ids(0, 250));
  });

  it('announces nothing while the next batch is still filling up (below flushAt, not flushing)', async () => {
    const q = gatedQueue();
    for (let i = 0; i < 105; i++) q.queue.enqueue(event(i));
    await Promise.resolve();
    expect(q.requests).toEqual([ids(0, 100)]);
    expect(q.announced).toEqual([]);
  });
});

describe('prepared bodies', () => {
  const events = Array.from({ length: 5 }, (_, i) => event(i));

  it('hands over the body built for exactly these events, once', async () => {
    let encoded = 0;
    const bodies = createPreparedBodies(
      (batch) => `body of ${batch.length} #${++encoded}`,
      () => 1_000,
    );
    bodies.prepare(events);
    expect(await bodies.take([...events])).toBe('body of 5 #1');
    expect(bodies.take(events)).toBeUndefined();
    expect(encoded).toBe(1);
  });

  it('is not used for other events, another count, or once older than MAX_PREPARED_AGE_MS', () => {
    let clock = 1_000;
    const bodies = createPreparedBodies(
      () => 'body',
      () => clock,
    );
    bodies.prepare(events);
    expect(bodies.take(events.slice(0, 4))).toBeUndefined();
    bodies.prepare(events);
    expect(bodies.take([event(0), ...events.slice(1, 4), event(9)])).toBeUndefined();
    bodies.prepare(events);
    clock += MAX_PREPARED_AGE_MS + 1;
    expect(bodies.take(events)).toBeUndefined();
  });

  it('a preparation that failed makes the request a retry, never an unhandled rejection', async () => {
    const bodies = createPreparedBodies(() => {
      throw new Error('compressor broke');
    });
    bodies.prepare(events);
    const send = createBatchSender(
      {
        host: 'http://127.0.0.1:1',
        apiKey: 'phc_k',
        timeoutMs: 1_000,
        contentType: 'application/json',
        executor: async () => ({ status: 200, body: '', retryAfter: null }),
      },
      bodies.take,
    );
    expect(await send(events)).toMatchObject({ kind: 'retry', message: expect.stringContaining('compressor broke') });
    // Not prepared: built now, and this one succeeds.
    expect(await send(events)).toEqual({ kind: 'ok' });
  });
});
