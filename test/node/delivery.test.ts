// Delivery under faults, against a real HTTP collector that misbehaves on cue (docs/wire-protocol.md, docs/guarantees.md).
import { afterEach, describe, expect, it } from 'vitest';
import { PostHog, type HogtailError } from '../../src/node';
import { createFaultCollector, type Fault, type FaultCollector, type FaultPlan } from '../support/fault-collector';
import { createRecordingExecutor, duplicateProblems } from '../support/recording-executor';

let collector: FaultCollector | undefined;
const clients: PostHog[] = [];
const executors: { destroy(): void }[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.shutdown(2000)));
  for (const executor of executors.splice(0)) executor.destroy();
  await collector?.close();
  collector = undefined;
});

/**
 * Longer than a test may run: an answer the client stops waiting for is resent, and when the
 * server had taken it, that is a duplicate only the machine's load explains. Tests of the deadline
 * itself set a short one and judge duplicates by what the client heard (recording-executor.ts).
 */
const NO_TIMEOUT_MS = 10 * 60_000;

async function setup(plan: FaultPlan, options: ConstructorParameters<typeof PostHog>[1] = {}) {
  collector = await createFaultCollector({ plan });
  const recording = createRecordingExecutor();
  executors.push(recording);
  const client = new PostHog('phc_test', {
    host: collector.url,
    flushAt: 50,
    maxBatchSize: 50,
    requestTimeout: NO_TIMEOUT_MS,
    retry: { initialDelayMs: 5, maxDelayMs: 40 },
    flushOnExitTimeout: 0,
    executor: recording.execute,
    ...options,
  });
  clients.push(client);
  const errors: HogtailError[] = [];
  client.on('error', (error) => errors.push(error));
  return { collector, client, errors, sends: recording.sends };
}

const capture = (client: PostHog, count: number, from = 0) => {
  for (let i = from; i < from + count; i++) client.capture({ distinctId: `u${i % 7}`, event: 'e', properties: { seq: i } });
};
const seqs = (c: FaultCollector) => c.events.map((e) => e.properties.seq as number);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('transient failures are retried with the same uuids', () => {
  it.each<[string, Fault]>([
    ['500', { kind: 'status', status: 500 }],
    ['503', { kind: 'status', status: 503 }],
    ['408', { kind: 'status', status: 408 }],
    ['429 with Retry-After', { kind: 'status', status: 429, retryAfter: '0' }],
    ['connection reset', { kind: 'reset' }],
    ['a hang (request timeout)', { kind: 'hang' }],
    ["an answer after the client's deadline (the server kept the events)", { kind: 'acceptLate', afterMs: 400 }],
  ])('%s', async (_, fault) => {
    // A hang or a late answer ends at the client's deadline, so it gets a short one; an answered
    // request may then outlast it too on a loaded machine, which is one more retry, never a loss.
    const timesOut = fault.kind === 'hang' || fault.kind === 'acceptLate';
    const deadline = timesOut ? { requestTimeout: 200 } : {};
    const { collector, client, errors, sends } = await setup((index) => (index < 2 ? fault : undefined), deadline);
    capture(client, 50);
    await client.flush();
    expect([...new Set(seqs(collector))].sort((a, b) => a - b)).toEqual(range(50));
    expect(
      duplicateProblems(
        sends,
        collector.events.map((e) => e.uuid!),
      ),
    ).toEqual([]);
    expect(collector.log[0]!.uuids).toEqual(collector.log[2]!.uuids);
    const failed = sends.filter((send) => !send.delivered);
    if (timesOut) {
      expect(failed.length).toBeGreaterThanOrEqual(2);
      expect(failed.every((send) => /no response within 200 ms/.test(send.failure!))).toBe(true);
    } else {
      expect(failed).toHaveLength(2);
    }
    expect(errors.map((e) => e.name)).toEqual(failed.map(() => 'TransportError'));
    expect(client.stats()).toMatchObject({ delivered: 50, dropped: {}, retries: failed.length, pending: 0 });
  });

  it('"accepted but answered 500" resends the same uuids, so the duplicates are recognisable', async () => {
    const { collector, client } = await setup((index) => (index === 0 ? { kind: 'acceptThen', status: 500 } : undefined));
    capture(client, 50);
    await client.flush();
    expect(collector.events).toHaveLength(100);
    expect(new Set(collector.events.map((e) => e.uuid)).size).toBe(50);
  });

  it('honours Retry-After: the retry waits at least that long', async () => {
    const { collector, client, errors } = await setup((index) =>
      index === 0 ? { kind: 'status', status: 429, retryAfter: '1' } : undefined,
    );
    capture(client, 50);
    await client.flush();
    expect(seqs(collector)).toEqual(range(50));
    const retry = errors[0] as HogtailError & { retryInMs: number; status: number };
    expect(retry.status).toBe(429);
    expect(retry.retryInMs).toBe(1000);
  });
});

describe('4xx: split and isolate', () => {
  it('a 400 is answered by halving until the bad event is alone; every other event is delivered', async () => {
    let badUuid = '';
    const { collector, client, errors } = await setup((_, info) =>
      badUuid !== '' && info.uuids.includes(badUuid) ? { kind: 'status', status: 400 } : undefined,
    );
    // The collector's own rules accept every event we can build, so the plan plays the strict server.
    collector.clear();
    client.capture({ distinctId: 'u', event: 'probe' });
    await client.flush();
    capture(client, 49);
    badUuid = '0190a0a0-0000-7000-8000-00000000bad0';
    client.capture({ distinctId: 'u', event: 'bad', uuid: badUuid });
    capture(client, 50, 49);
    await client.flush();
    expect(seqs(collector).filter((s) => s !== undefined)).toEqual(range(99));
    const dropped = errors.filter((e) => e.name === 'DroppedEventsError') as (HogtailError & { uuids: string[]; reason: string })[];
    expect(dropped.map((e) => [e.reason, e.uuids])).toEqual([['rejected', [badUuid]]]);
    expect(client.stats().dropped).toEqual({ rejected: 1 });
  });

  it('a 413 splits the batch; all events arrive in order', async () => {
    const { collector, client } = await setup((_, info) => (info.eventCount > 10 ? { kind: 'status', status: 413 } : undefined));
    capture(client, 100);
    await client.flush();
    expect(seqs(collector)).toEqual(range(100));
    expect(collector.log.filter((l) => l.status === 413).length).toBeGreaterThan(0);
  });
});

describe('flush and shutdown', () => {
  it('shutdown(timeout) against a server that never answers returns and reports what was left', async () => {
    const { client, errors } = await setup(() => ({ kind: 'hang' }), { requestTimeout: 60_000 });
    capture(client, 10);
    await client.shutdown(300);
    const dropped = errors.find((e) => e.name === 'DroppedEventsError') as HogtailError & { reason: string; count: number };
    expect(dropped.reason).toBe('shutdown');
    expect(dropped.count).toBe(10);
    expect(client.stats().dropped).toEqual({ shutdown: 10 });
  });

  it('flush() during an outage resolves once retries stall; events stay queued and arrive later', async () => {
    let down = true;
    const { collector, client } = await setup(() => (down ? { kind: 'status', status: 503 } : undefined), {
      retry: { initialDelayMs: 5, maxDelayMs: 20, maxAttempts: 3 },
    });
    capture(client, 20);
    await client.flush();
    expect(client.stats().pending).toBe(20);
    down = false;
    await client.flush();
    expect(seqs(collector)).toEqual(range(20));
  });

  it('a full queue evicts the oldest and reports how many', async () => {
    const { collector, client, errors } = await setup(() => undefined, { maxQueueSize: 30, flushAt: 1000 });
    capture(client, 100);
    await client.flush();
    expect(seqs(collector)).toEqual(range(30).map((i) => i + 70));
    const dropped = errors.find((e) => e.name === 'DroppedEventsError') as HogtailError & { reason: string; count: number };
    expect([dropped.reason, dropped.count]).toEqual(['queue_full', 70]);
  });
});

describe('zero loss', () => {
  it('20,000 events while a third of requests fail in every way: every uuid arrives; duplicates only where the server had accepted', async () => {
    const faults: Fault[] = [
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, retryAfter: '0' },
      { kind: 'status', status: 413 },
      { kind: 'reset' },
      { kind: 'hang' },
      { kind: 'acceptThen', status: 500 },
      { kind: 'acceptLate', afterMs: 400 },
    ];
    // A fixed pseudo-random sequence: about one request in three fails, cycling through every fault.
    let state = 12345;
    let next = 0;
    const plan: FaultPlan = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % 3 === 0 ? faults[next++ % faults.length] : undefined;
    };
    // A short deadline, so each hang costs little. An answered request that outlasts it on a loaded
    // machine is resent too; what the client heard (sends) says which duplicates that explains.
    const { collector, client, errors, sends } = await setup(plan, {
      flushAt: 100,
      maxBatchSize: 250,
      requestTimeout: 200,
      retry: { initialDelayMs: 1, maxDelayMs: 10, maxAttempts: 1000 },
    });
    for (let i = 0; i < 20_000; i++) {
      client.capture({ distinctId: `user-${i % 100}`, event: 'load', properties: { seq: i } });
      if (i % 1000 === 999) await new Promise((resolve) => setImmediate(resolve));
    }
    await client.flush();

    const arrivals = new Map<string, number>();
    const bySeq = new Map<number, string>();
    for (const event of collector.events) {
      arrivals.set(event.uuid!, (arrivals.get(event.uuid!) ?? 0) + 1);
      const seq = event.properties.seq as number;
      if (bySeq.has(seq)) expect(bySeq.get(seq)).toBe(event.uuid); // a duplicate is the same event
      bySeq.set(seq, event.uuid!);
    }
    expect(bySeq.size).toBe(20_000);
    expect(arrivals.size).toBe(20_000);
    // Never sent again once the client heard it delivered; each arrival beyond the first comes from
    // a request the client did not hear succeed (accepted then failed, or answered after the deadline).
    expect(
      duplicateProblems(
        sends,
        collector.events.map((e) => e.uuid!),
      ),
    ).toEqual([]);
    // The requests the server kept but failed or answered too late did make duplicates.
    const acceptedThenFailed = collector.log.filter((entry) => entry.fault?.kind.startsWith('accept') && entry.accepted);
    expect(acceptedThenFailed.length).toBeGreaterThan(0);
    for (const entry of acceptedThenFailed) expect(entry.uuids.every((uuid) => arrivals.get(uuid)! >= 2)).toBe(true);
    const kinds = new Set(collector.log.map((l) => l.fault?.kind ?? 'ok'));
    expect([...kinds].sort()).toEqual(['acceptLate', 'acceptThen', 'hang', 'ok', 'reset', 'status']);
    expect(errors.filter((e) => e.name !== 'TransportError')).toEqual([]);
    expect(client.stats()).toMatchObject({ delivered: 20_000, dropped: {}, pending: 0 });
  });
});
