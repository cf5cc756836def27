// hogtail dev's search and clear through its HTTP endpoints: the search reads the day files when
// memory holds only the newest events, pages newest first, and a clear hides what came before it
// (across a restart) while keeping the files unless told to delete them.
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { DevServer } from '../../src/devserver';
import { aBatch, anEvent, postJson } from './helpers';
import { devHarness, getJson } from './dev-support';

const harness = devHarness();
afterEach(() => harness.cleanup());

interface Page {
  events: Array<{ seq: number; event: string; distinct_id: string }>;
  matched: number;
  searched: number;
  nextBefore: number | null;
}

async function fill(server: DevServer): Promise<void> {
  const events = Array.from({ length: 60 }, (_, index) =>
    anEvent({
      event: index % 2 ? 'odd one' : 'even one',
      distinct_id: `user-${index}`,
      properties: { nested: { deep: [`value-${index}`] }, n: index },
    }),
  );
  expect((await postJson(`${server.url}/batch/`, aBatch(events))).status).toBe(200);
}

const clearHeaders = { 'x-hogtail-dev-clear': '1' };

describe('hogtail dev: search and clear', () => {
  it('searches every event on disk by name, distinct id and nested property values, newest first, in pages', async () => {
    const { server } = await harness.start({ dataDir: harness.tempDir(), maxEventsInMemory: 10 });
    await fill(server);
    expect(server.store.events().length).toBeLessThan(60);

    const byValue = await getJson<Page>(`${server.url}/_dev/search?q=VALUE-3`);
    expect(byValue.events.map((event) => event.seq)).toEqual([40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 4]);
    expect(byValue).toMatchObject({ matched: 11, searched: 60, nextBefore: null });
    const byId = await getJson<Page>(`${server.url}/_dev/search?q=user-0`);
    expect(byId.events.map((event) => event.distinct_id)).toEqual(['user-0']);

    const first = await getJson<Page>(`${server.url}/_dev/search?q=odd&limit=20`);
    expect(first.matched).toBe(30);
    expect(first.events.map((event) => event.seq)).toEqual(Array.from({ length: 20 }, (_, index) => 60 - 2 * index));
    const second = await getJson<Page>(`${server.url}/_dev/search?q=odd&limit=20&before=${first.nextBefore}`);
    expect(second.events.map((event) => event.seq)).toEqual(Array.from({ length: 10 }, (_, index) => 20 - 2 * index));
    expect(second.nextBefore).toBeNull();
  });

  it('clears on POST with the page header, hides the old events across a restart, and keeps the files', async () => {
    const dataDir = harness.tempDir();
    const first = await harness.start({ dataDir });
    await fill(first.server);

    expect((await fetch(`${first.server.url}/_dev/clear`, { method: 'POST' })).status).toBe(403);
    const foreign = await fetch(`${first.server.url}/_dev/clear`, {
      method: 'POST',
      headers: { ...clearHeaders, Origin: 'http://evil.example' },
    });
    expect(foreign.status).toBe(403);
    expect(first.server.store.visibleEvents()).toBe(60);

    expect((await fetch(`${first.server.url}/_dev/clear`, { method: 'POST', headers: clearHeaders })).status).toBe(200);
    expect((await getJson<Page>(`${first.server.url}/_dev/search?q=`)).matched).toBe(0);
    expect(first.server.summary()).toMatchObject({ events: { total: 0 }, people: 0, rejections: { total: 0 } });
    await postJson(`${first.server.url}/batch/`, aBatch([anEvent({ event: 'after clear' })]));
    await harness.stop(first.server);

    const second = await harness.start({ dataDir });
    const page = await getJson<Page>(`${second.server.url}/_dev/search`);
    expect(page.events.map((event) => [event.seq, event.event])).toEqual([[61, 'after clear']]);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('events-'))).toHaveLength(1);

    expect((await fetch(`${second.server.url}/_dev/clear?files=delete`, { method: 'POST', headers: clearHeaders })).status).toBe(200);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('events-'))).toHaveLength(0);
    await postJson(`${second.server.url}/batch/`, aBatch([anEvent({ event: 'fresh' })]));
    await harness.stop(second.server);

    // Sequence numbers never go back, so a page resuming from Last-Event-ID misses nothing.
    const third = await harness.start({ dataDir });
    expect((await getJson<Page>(`${third.server.url}/_dev/search`)).events.map((event) => [event.seq, event.event])).toEqual([
      [62, 'fresh'],
    ]);
  });
});
