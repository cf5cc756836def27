// persistence: { type: 'file' } against a real collector on 127.0.0.1: what one run leaves, the next
// sends first with the same uuids; damage is skipped and reported; a bad path never breaks capture.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PostHog, type HogtailError } from '../../src/node';
import type { PostHogOptions } from '../../src/node/options';
import { addBody, frameRecord, parseJournal } from '../../src/node/persistence/journal-format';
import type { PersistenceError } from '../../src/node/persistence/errors';
import { createFaultCollector, type FaultCollector, type FaultPlan } from '../support/fault-collector';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hogtail-persistence-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function collectorWith(plan: FaultPlan = () => undefined): Promise<FaultCollector> {
  const collector = await createFaultCollector({ plan });
  cleanups.push(() => collector.close());
  return collector;
}

function client(host: string, path: string, options: PostHogOptions = {}) {
  const instance = new PostHog('phc_test', {
    host,
    flushAt: 50,
    maxBatchSize: 50,
    requestTimeout: 1000,
    retry: { initialDelayMs: 1, maxDelayMs: 20 },
    flushOnExitTimeout: 0,
    persistence: { type: 'file', path },
    ...options,
  });
  cleanups.push(() => instance.shutdown(0));
  const errors: HogtailError[] = [];
  instance.on('error', (error) => errors.push(error));
  return { instance, errors };
}

const capture = (c: PostHog, from: number, count: number) => {
  for (let i = from; i < from + count; i++) c.capture({ distinctId: `u${i % 5}`, event: 'e', properties: { seq: i } });
};
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);
const seqs = (c: FaultCollector) => c.events.map((e) => e.properties.seq as number);
const persistenceErrors = (errors: HogtailError[]) => errors.filter((e): e is PersistenceError => e.name === 'PersistenceError');
const journalOf = (dir: string) => join(dir, 'hogtail.journal');

/** Runs a client against a server that answers 503 to everything, so its events stay in the journal. */
async function leaveInJournal(dir: string, count: number, options: PostHogOptions = {}) {
  const down = await collectorWith(() => ({ kind: 'status', status: 503 }));
  const { instance, errors } = client(down.url, dir, { flushAt: 1000, ...options });
  capture(instance, 0, count);
  await instance.shutdown(0);
  return { errors, stats: instance.stats(), down };
}

describe('what one run leaves, the next sends first', () => {
  it.each(['interval', 'always'] as const)(
    'fsync %s: undelivered events survive shutdown with their uuids and go before new ones',
    async (fsync) => {
      const dir = tempDir();
      const first = await leaveInJournal(dir, 30, { persistence: { type: 'file', path: dir, fsync } });
      // Kept, not lost: reported as retained (with every uuid), never counted as dropped.
      const retained = persistenceErrors(first.errors);
      expect(retained.map((e) => e.reason)).toEqual(['retained']);
      expect(retained[0]!.uuids).toHaveLength(30);
      expect(retained[0]!.message).toMatch(/stay in .*hogtail\.journal/);
      expect(first.errors.filter((e) => e.name === 'DroppedEventsError')).toEqual([]);
      expect(first.stats.dropped).toEqual({});

      const up = await collectorWith();
      const { instance, errors } = client(up.url, dir, { persistence: { type: 'file', path: dir, fsync } });
      capture(instance, 1000, 3);
      await instance.flush();
      expect(seqs(up)).toEqual([...range(0, 30), 1000, 1001, 1002]);
      expect(up.events.slice(0, 30).map((e) => e.uuid)).toEqual(retained[0]!.uuids);
      expect(errors).toEqual([]);
      await instance.shutdown();
      // Delivered means acknowledged: a third run has nothing to send.
      expect(parseJournal(readFileSync(journalOf(dir))).live).toEqual([]);
    },
  );

  it('releases the lock at shutdown, and a second client on a path in use is refused with the path and pid', async () => {
    const dir = tempDir();
    const up = await collectorWith();
    const { instance } = client(up.url, dir);
    expect(() => client(up.url, dir)).toThrow(
      expect.objectContaining({
        name: 'PersistenceError',
        reason: 'locked',
        message: expect.stringContaining(`${dir} is in use by another client in this process (pid ${process.pid})`),
      }),
    );
    await instance.shutdown();
    expect(() => statSync(join(dir, 'hogtail.lock'))).toThrow(/ENOENT/);
    expect(() => client(up.url, dir)).not.toThrow();
  });
});

describe('a damaged journal', () => {
  it('a torn last record is discarded and reported; every whole record is delivered and the journal is whole again', async () => {
    const dir = tempDir();
    await leaveInJournal(dir, 20);
    const stray = {
      uuid: '0190a0a0-0000-7000-8000-000000000999',
      json: '{"uuid":"0190a0a0-0000-7000-8000-000000000999","event":"torn","properties":{"distinct_id":"x"},"timestamp":"2024-01-01T00:00:00.000Z"}',
    };
    appendFileSync(journalOf(dir), Buffer.from(frameRecord(addBody(stray))).subarray(0, 60));

    const up = await collectorWith(() => ({ kind: 'status', status: 503 }));
    const { instance, errors } = client(up.url, dir, { flushAt: 1000 });
    await Promise.resolve();
    expect(persistenceErrors(errors).map((e) => [e.reason, e.message])).toEqual([
      ['torn', expect.stringMatching(/partial record of 60 bytes/)],
    ]);
    capture(instance, 100, 5);
    await instance.shutdown(0);
    // The events appended after the torn tail are whole records, not glued to the cut one.
    const replay = parseJournal(readFileSync(journalOf(dir)));
    expect(replay).toMatchObject({ corrupt: 0, tornBytes: 0 });
    expect(replay.live.map((r) => JSON.parse(r.event.json).properties.seq)).toEqual([...range(0, 20), ...range(100, 5)]);

    const ok = await collectorWith();
    const next = client(ok.url, dir);
    await next.instance.flush();
    expect(seqs(ok)).toEqual([...range(0, 20), ...range(100, 5)]);
    expect(next.errors).toEqual([]);
  });

  it('a corrupt record in the middle is skipped and reported; the rest is delivered', async () => {
    const dir = tempDir();
    await leaveInJournal(dir, 20);
    const bytes = readFileSync(journalOf(dir));
    const at = bytes.indexOf('"seq":7,');
    expect(at).toBeGreaterThan(0);
    bytes[at + 6] = '8'.charCodeAt(0); // seq 7 becomes 8: valid JSON, wrong checksum
    writeFileSync(journalOf(dir), bytes);

    const up = await collectorWith();
    const { instance, errors } = client(up.url, dir);
    await instance.flush();
    expect(seqs(up)).toEqual(range(0, 20).filter((s) => s !== 7));
    expect(persistenceErrors(errors).map((e) => [e.reason, e.message])).toEqual([
      ['corrupt', expect.stringMatching(/1 damaged record\(s\) in .*hogtail\.journal \(the first at byte \d+\) were skipped/)],
    ]);
  });

  it('a journal in a format this version cannot read is left untouched; capture goes on in memory', async () => {
    const dir = tempDir();
    const future = Buffer.concat([Buffer.from(frameRecord('H hogtail-journal 2')), Buffer.from('whatever version 2 writes\n')]);
    writeFileSync(journalOf(dir), future);
    const up = await collectorWith();
    const { instance, errors } = client(up.url, dir);
    capture(instance, 0, 3);
    await instance.flush();
    expect(seqs(up)).toEqual(range(0, 3));
    expect(persistenceErrors(errors).map((e) => [e.reason, e.message])).toEqual([
      ['unsupported', expect.stringContaining('journal format 2')],
    ]);
    await instance.shutdown();
    expect(readFileSync(journalOf(dir))).toEqual(future);
  });
});

describe('compaction', () => {
  it('keeps the journal bounded while many events flow', async () => {
    const dir = tempDir();
    const up = await collectorWith();
    const { instance, errors } = client(up.url, dir, { persistence: { type: 'file', path: dir, compactAtBytes: 16 * 1024 } });
    let largest = 0;
    for (let round = 0; round < 40; round++) {
      capture(instance, round * 100, 100);
      largest = Math.max(largest, statSync(journalOf(dir)).size);
      await instance.flush();
      largest = Math.max(largest, statSync(journalOf(dir)).size);
    }
    expect(seqs(up)).toEqual(range(0, 4000));
    // Far more went through the journal than it ever held: about the threshold plus a round.
    const eventBytes = up.events.reduce((sum, e) => sum + JSON.stringify(e).length, 0);
    expect(largest).toBeLessThan(80 * 1024);
    expect(eventBytes).toBeGreaterThan(10 * largest);
    expect(errors).toEqual([]);
  });

  it('keeps every live event when it compacts with many still queued', async () => {
    const dir = tempDir();
    // 20 requests of 100 are accepted, then the server fails: 1,000 events are still queued.
    const flaky = await collectorWith((index) => (index < 20 ? undefined : { kind: 'status', status: 503 }));
    const { instance, errors } = client(flaky.url, dir, {
      flushAt: 100,
      maxBatchSize: 100,
      retry: { initialDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 },
      persistence: { type: 'file', path: dir, compactAtBytes: 16 * 1024 },
    });
    capture(instance, 0, 3000);
    await instance.flush();
    await instance.shutdown(0);
    expect(seqs(flaky)).toEqual(range(0, 2000));
    const adds = readFileSync(journalOf(dir), 'utf8')
      .split('\n')
      .filter((line) => line.slice(9, 11) === 'A ').length;
    expect(adds).toBeLessThan(3000); // it did compact
    expect(persistenceErrors(errors).map((e) => [e.reason, e.uuids.length])).toEqual([['retained', 1000]]);

    const up = await collectorWith();
    const next = client(up.url, dir);
    await next.instance.flush();
    expect(seqs(up)).toEqual(range(2000, 1000));
  });
});

describe('a path that cannot be written: memory, one report, capture goes on', () => {
  // Tests run as root, where chmod 0o500 stops nothing; these paths fail for root too.
  it.each([
    ['a path that is a regular file', (dir: string) => (writeFileSync(join(dir, 'file'), 'x'), join(dir, 'file'))],
    ['a path under /proc, where nothing can be created', () => '/proc/hogtail-test/queue'],
  ])('%s', async (_, makePath) => {
    const path = makePath(tempDir());
    const up = await collectorWith();
    const { instance, errors } = client(up.url, path);
    capture(instance, 0, 120);
    await instance.flush();
    expect(seqs(up)).toEqual(range(0, 120));
    const reported = persistenceErrors(errors);
    expect(reported.map((e) => e.reason)).toEqual(['unwritable']);
    expect(reported[0]!.message).toContain(path);
    expect(reported[0]!.message).toMatch(/kept in memory only .* capturing continues/);
    // Whatever is left at shutdown is then a real loss, and says so.
    const down = await collectorWith(() => ({ kind: 'status', status: 503 }));
    const second = client(down.url, path, { flushAt: 1000 });
    capture(second.instance, 0, 3);
    await second.instance.shutdown(0);
    expect(second.errors.map((e) => e.name)).toContain('DroppedEventsError');
    expect(second.instance.stats().dropped).toEqual({ shutdown: 3 });
  });
});
