// @vitest-environment happy-dom
import { beforeEach, describe, expect, it } from 'vitest';
import type { QueuedEvent } from '../../src/core/event';
import { uuidv7 } from '../../src/core/uuid';
import { createLedger } from '../../src/browser/delivery/ledger';
import { startTabs } from '../../src/browser/delivery/tabs';

const PREFIX = 'ht|k|q|';
const event = (i: number): QueuedEvent => {
  const uuid = uuidv7();
  return { uuid, json: `{"uuid":"${uuid}","event":"e","properties":{"i":${i}}}` };
};
const stored = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith(PREFIX))
    .flatMap((key) => localStorage.getItem(key)!.split('\n'));
const flushMicrotasks = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ledger', () => {
  beforeEach(() => localStorage.clear());

  it('stores appended events in segments before the task ends and removes delivered ones', async () => {
    const ledger = createLedger(localStorage, PREFIX, uuidv7(), 10_000, 10_000_000);
    const events = Array.from({ length: 250 }, (_, i) => event(i));
    for (const e of events) ledger.appended(e);
    expect(stored()).toEqual([]);
    // The task's microtasks: one write for the whole loop, before any later task (a crash) can come.
    await Promise.resolve();
    expect(stored()).toHaveLength(250);
    expect(Object.keys(localStorage).filter((key) => key.startsWith(PREFIX))).toHaveLength(3);
    // Part of a segment delivered: the rest is rewritten, the delivered part is gone.
    ledger.removed(events.slice(0, 150));
    expect(stored().sort()).toEqual(
      events
        .slice(150)
        .map((e) => e.json)
        .sort(),
    );
    ledger.removed(events.slice(150));
    expect(stored()).toEqual([]);
    expect(ledger.list_()).toEqual([]);
  });

  it('flush() writes the events of this task at once (a request starting in it), and only once', async () => {
    const ledger = createLedger(localStorage, PREFIX, uuidv7(), 10_000, 10_000_000);
    ledger.appended(event(1));
    ledger.appended(event(2));
    expect(stored()).toEqual([]);
    ledger.flush_();
    expect(stored()).toHaveLength(2);
    await Promise.resolve();
    expect(Object.keys(localStorage).filter((key) => key.startsWith(PREFIX))).toHaveLength(1);
  });

  it('keeps events over the caps in memory and writes them once deliveries make room', async () => {
    const ledger = createLedger(localStorage, PREFIX, uuidv7(), 100, 10_000_000);
    const events = Array.from({ length: 150 }, (_, i) => event(i));
    for (const e of events) ledger.appended(e);
    // Reading `unsaved` writes what waits first: what is left could not be stored.
    expect(ledger.unsaved_).toBe(50);
    expect(stored()).toHaveLength(100);
    ledger.removed(events.slice(0, 100));
    ledger.flush_();
    expect(stored()).toHaveLength(50);
    expect(ledger.unsaved_).toBe(0);
  });

  it('a task writes only its own events, once, and none that left before the write', async () => {
    const writes: string[] = [];
    const recording = {
      setItem: (key: string, value: string) => (writes.push(value), localStorage.setItem(key, value)),
      getItem: (key: string) => localStorage.getItem(key),
      removeItem: (key: string) => localStorage.removeItem(key),
    } as unknown as Storage;
    const ledger = createLedger(recording, PREFIX, uuidv7(), 10_000, 10_000_000);
    for (let i = 0; i < 50; i++) ledger.appended(event(i));
    ledger.flush_();
    writes.length = 0;
    const [kept, gone] = [event(50), event(51)];
    ledger.appended(kept);
    ledger.appended(gone);
    ledger.removed([gone]); // dropped (evicted) in the task that captured it
    await Promise.resolve();
    expect(writes).toEqual([kept.json]);
    expect(stored()).toHaveLength(51);
    expect(stored()).not.toContain(gone.json);
  });

  it('unstored(): what is over the caps, or everything without storage, until delivered', async () => {
    const capped = createLedger(localStorage, PREFIX, uuidv7(), 2, 10_000_000);
    const events = Array.from({ length: 5 }, (_, i) => event(i));
    for (const e of events.slice(0, 2)) capped.appended(e);
    await Promise.resolve();
    for (const e of events.slice(2)) capped.appended(e);
    await Promise.resolve();
    expect(capped.unstored_()).toEqual(events.slice(2));
    capped.removed([events[3]!]);
    expect(capped.unstored_()).toEqual([events[2], events[4]]);

    const memory = createLedger(undefined, PREFIX, uuidv7(), 100, 10_000_000);
    for (const e of events) memory.appended(e);
    await Promise.resolve();
    memory.removed(events.slice(0, 3));
    expect(memory.unstored_()).toEqual(events.slice(3));
    expect(memory.unsaved_).toBe(2);
  });

  it('a store that throws stops writing without throwing', async () => {
    const broken = {
      setItem() {
        throw new Error('full');
      },
      getItem: () => null,
      removeItem() {},
      key: () => null,
      length: 0,
    } as unknown as Storage;
    const ledger = createLedger(broken, PREFIX, uuidv7(), 100, 1_000_000);
    const e = event(1);
    ledger.appended(e);
    await flushMicrotasks();
    expect(ledger.unsaved_).toBe(1);
    expect(ledger.list_()).toEqual([e]);
    expect(() => ledger.removed([e])).not.toThrow();
  });

  it('adopts a gone tab’s events under its own id, once', async () => {
    const dead = createLedger(localStorage, PREFIX, uuidv7(Date.now() - 60_000), 1000, 1_000_000);
    const events = Array.from({ length: 5 }, (_, i) => event(i));
    for (const e of events) dead.appended(e);
    dead.flush_(); // as its pagehide did
    const deadId = Object.keys(localStorage)[0]!.slice(PREFIX.length, PREFIX.length + 36);
    const liveId = uuidv7();
    const live = createLedger(localStorage, PREFIX, liveId, 1000, 1_000_000);
    expect(live.others_()).toEqual([deadId]);
    expect(live.adopt_(deadId).map((e) => e.uuid)).toEqual(events.map((e) => e.uuid));
    expect(Object.keys(localStorage).every((key) => key.startsWith(PREFIX + liveId))).toBe(true);
    expect(live.adopt_(deadId)).toEqual([]);
    live.removed(live.list_());
    expect(stored()).toEqual([]);
  });
});

describe('tabs without Web Locks (lease)', () => {
  beforeEach(() => localStorage.clear());

  async function leftBy(tabId: string, count: number): Promise<QueuedEvent[]> {
    const ledger = createLedger(localStorage, 'ht|k|q|', tabId, 1000, 1_000_000);
    const events = Array.from({ length: count }, (_, i) => event(i));
    for (const e of events) ledger.appended(e);
    ledger.flush_(); // as its pagehide did
    return events;
  }

  // uuidv7() never goes back in time (it is monotonic), so an old tab id is spelled out by hand.
  let counter = 0;
  const idAt = (ms: number) => {
    const hex = ms.toString(16).padStart(12, '0');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-${String(++counter).padStart(12, '0')}`;
  };

  it('adopts events of a tab whose lease is stale or missing, not of one whose lease is fresh, nor of a young tab', async () => {
    expect((navigator as { locks?: unknown }).locks).toBeFalsy();
    const old = Date.now() - 120_000;
    const gone = idAt(old);
    const alive = idAt(old);
    const young = uuidv7();
    const goneEvents = await leftBy(gone, 3);
    await leftBy(alive, 2);
    await leftBy(young, 2);
    localStorage.setItem('ht|k|t|' + gone, String(old));
    localStorage.setItem('ht|k|t|' + alive, String(Date.now()));

    const me = uuidv7();
    const ledger = createLedger(localStorage, 'ht|k|q|', me, 1000, 1_000_000);
    const restored: QueuedEvent[] = [];
    const tabs = startTabs(localStorage, 'ht|k|', me, ledger, (events) => restored.push(...events));
    await flushMicrotasks();
    expect(restored.map((e) => e.uuid)).toEqual(goneEvents.map((e) => e.uuid));
    expect(localStorage.getItem('ht|k|t|' + me)).not.toBeNull();
    tabs.leave_();
    expect(localStorage.getItem('ht|k|t|' + me)).toBeNull();
  });
});
