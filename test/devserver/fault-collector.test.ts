import { afterEach, describe, expect, it } from 'vitest';
import { createFaultCollector, type Fault, type FaultCollector, type FaultPlanInfo } from '../support/fault-collector';
import { KEY, aBatch, anEvent, post, postJson } from './helpers';

let collector: FaultCollector | undefined;
afterEach(async () => {
  await collector?.close();
  collector = undefined;
});

/** Faults the first request with `fault`, lets every later one through. */
const firstOnly = (fault: Fault) => (index: number) => (index === 0 ? fault : undefined);

describe('fault collector', () => {
  it('answers an injected status with Retry-After, records nothing, then lets the resend through', async () => {
    collector = await createFaultCollector({ plan: firstOnly({ kind: 'status', status: 503, retryAfter: '2' }) });
    const events = [anEvent(), anEvent()];

    const failed = await postJson(`${collector.url}/batch/`, aBatch(events));
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('2');
    expect(collector.events).toHaveLength(0);
    expect(collector.rejections).toHaveLength(0);

    expect((await postJson(`${collector.url}/batch/`, aBatch(events))).status).toBe(200);
    const uuids = events.map((event) => event.uuid);
    expect(collector.events.map((event) => event.uuid)).toEqual(uuids);
    expect(collector.log).toEqual([
      expect.objectContaining({
        index: 0,
        path: '/batch/',
        fault: { kind: 'status', status: 503, retryAfter: '2' },
        uuids,
        accepted: false,
        status: 503,
      }),
      expect.objectContaining({ index: 1, path: '/batch/', uuids, accepted: true, status: 200 }),
    ]);
    expect(collector.log[1]).not.toHaveProperty('fault');
  });

  it('resets the connection: the client sees a network error and nothing is recorded', async () => {
    collector = await createFaultCollector({ plan: firstOnly({ kind: 'reset' }) });
    const event = anEvent();

    await expect(postJson(`${collector.url}/batch/`, aBatch([event]))).rejects.toThrow(TypeError);
    expect(collector.events).toHaveLength(0);
    expect(collector.log[0]).toMatchObject({ fault: { kind: 'reset' }, uuids: [event.uuid], accepted: false });
    expect(collector.log[0]).not.toHaveProperty('status');

    expect((await postJson(`${collector.url}/batch/`, aBatch([event]))).status).toBe(200);
  });

  it('hangs without answering until the collector closes', async () => {
    let arrived!: () => void;
    const hung = new Promise<void>((resolve) => (arrived = resolve));
    collector = await createFaultCollector({
      plan: () => {
        arrived();
        return { kind: 'hang' };
      },
    });

    const pending = postJson(`${collector.url}/batch/`, aBatch([anEvent()]));
    const settled = pending.then(
      () => 'answered',
      () => 'failed',
    );
    await hung;
    expect(collector.events).toHaveLength(0);
    await collector.close();
    expect(await settled).toBe('failed');
    expect(collector.log[0]).toMatchObject({ fault: { kind: 'hang' }, accepted: false });
  });

  it('acceptThen records the events but answers the failure, so a resend is a duplicate by uuid', async () => {
    collector = await createFaultCollector({ plan: firstOnly({ kind: 'acceptThen', status: 500 }) });
    const events = [anEvent(), anEvent()];

    expect((await postJson(`${collector.url}/batch/`, aBatch(events))).status).toBe(500);
    expect(collector.events).toHaveLength(2);
    expect((await postJson(`${collector.url}/batch/`, aBatch(events))).status).toBe(200);

    const acceptedButFailed = collector.log.filter((entry) => entry.fault?.kind === 'acceptThen');
    const duplicated = new Set(acceptedButFailed.flatMap((entry) => entry.uuids));
    const uuids = collector.events.map((event) => event.uuid);
    expect(uuids).toHaveLength(4);
    expect(new Set(uuids)).toEqual(duplicated);
    expect(collector.log[0]).toMatchObject({ accepted: true, status: 500 });
  });

  it('consults the plan with the request index, path and event count, skipping preflights', async () => {
    const calls: Array<[number, FaultPlanInfo]> = [];
    collector = await createFaultCollector({
      plan: (index, info) => {
        calls.push([index, info]);
        return undefined;
      },
    });

    await fetch(`${collector.url}/batch/`, { method: 'OPTIONS', headers: { Origin: 'http://a.test' } });
    const sent = [anEvent(), anEvent(), anEvent()];
    await postJson(`${collector.url}/batch/`, aBatch(sent));
    await postJson(`${collector.url}/decide/?v=3`, { token: KEY, distinct_id: 'u' });
    await post(`${collector.url}/e/`, '{not json');

    expect(calls).toEqual([
      [0, { path: '/batch/', eventCount: 3, uuids: sent.map((event) => event.uuid) }],
      [1, { path: '/decide/', eventCount: 0, uuids: [] }],
      [2, { path: '/e/', eventCount: 0, uuids: [] }],
    ]);
    expect(collector.requests).toBe(4);
    expect(collector.log.map((entry) => entry.status)).toEqual([200, 200, 400]);
  });

  it('knows the uuids of a request the rules refused, and the fault still wins', async () => {
    collector = await createFaultCollector({ plan: firstOnly({ kind: 'status', status: 429 }) });
    const events = [anEvent(), anEvent({ event: '' })];

    expect((await postJson(`${collector.url}/batch/`, aBatch(events))).status).toBe(429);
    expect(collector.log[0]).toMatchObject({ uuids: events.map((event) => event.uuid), accepted: false, status: 429 });
  });

  it('clear() also empties the log', async () => {
    collector = await createFaultCollector({ plan: () => undefined });
    await postJson(`${collector.url}/batch/`, aBatch([anEvent()]));
    collector.clear();
    expect(collector.log).toHaveLength(0);
    expect(collector.events).toHaveLength(0);
    expect(collector.requests).toBe(0);
  });
});
