// The journal's record format, byte by byte: what a crash or a bad sector can leave, and what a
// reader makes of it (docs/guarantees.md §2: nothing captured is lost; damage is skipped, never fatal).
import { crc32 as zlibCrc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { QueuedEvent } from '../../src/core/event';
import { crc32, crc32Js } from '../../src/node/persistence/crc32';
import { ackBody, addBody, frameRecord, HEADER_BODY, HEADER_BYTES, parseJournal } from '../../src/node/persistence/journal-format';

const event = (n: number, extra = ''): QueuedEvent => {
  const uuid = `0190a0a0-0000-7000-8000-${String(n).padStart(12, '0')}`;
  return { uuid, json: `{"uuid":"${uuid}","event":"e${extra}","properties":{"n":${n}},"timestamp":"2024-01-01T00:00:00.000Z"}` };
};

// frameRecord returns a view on a shared buffer; a journal made of several records needs copies.
const journal = (...bodies: string[]) => Buffer.concat(bodies.map((body) => Buffer.from(frameRecord(body))));
const uuidsOf = (bytes: Buffer) => parseJournal(bytes).live.map((r) => r.event.uuid);

describe('crc32', () => {
  // The JavaScript one runs where zlib.crc32 is missing (Node < 20.15); both must agree byte for byte.
  it.each([
    ['native when available', crc32],
    ['JavaScript', crc32Js],
  ])('%s is the standard CRC-32', (_, crc) => {
    expect(crc(Buffer.from('123456789'))).toBe(0xcbf43926);
    const random = Buffer.from(Array.from({ length: 5003 }, (_, i) => (i * 7919 + (i >> 3)) & 0xff));
    expect(crc(random)).toBe(zlibCrc32(random));
    for (const [start, end] of [
      [0, 0],
      [1, 2],
      [3, 4000],
      [100, 5003],
    ] as const) {
      expect(crc(random, start, end)).toBe(zlibCrc32(random.subarray(start, end)));
    }
  });
});

describe('records', () => {
  it('an event round-trips exactly, with its uuid, non-ASCII JSON included', () => {
    const events = [event(1), event(2, ' ünïcødé 🦔 \\u2028'), event(3)];
    const replay = parseJournal(journal(HEADER_BODY, ...events.map(addBody)));
    expect(replay.live.map((r) => r.event)).toEqual(events);
    expect(replay).toMatchObject({ version: 1, corrupt: 0, tornBytes: 0 });
    expect(replay.liveBytes + HEADER_BYTES).toBe(journal(HEADER_BODY, ...events.map(addBody)).length);
  });

  it('a record is one line: checksum, space, body, newline', () => {
    const line = Buffer.from(frameRecord('K abc')).toString('utf8');
    expect(line).toMatch(/^[0-9a-f]{8} K abc\n$/);
    expect(parseInt(line.slice(0, 8), 16)).toBe(zlibCrc32('K abc'));
  });

  it('a body too large for the shared buffer still frames correctly', () => {
    const big = event(9, 'x'.repeat(400_000));
    expect(parseJournal(journal(HEADER_BODY, addBody(big))).live[0]!.event).toEqual(big);
  });

  it('acknowledgements remove events; the rest stay in order', () => {
    const [a, b, c, d] = [event(1), event(2), event(3), event(4)];
    const bytes = journal(HEADER_BODY, addBody(a), addBody(b), ackBody([a.uuid, c.uuid]), addBody(c), addBody(d), ackBody([d.uuid]));
    // c's ack came before its add (it cannot in practice) and removes nothing.
    expect(uuidsOf(bytes)).toEqual([b.uuid, c.uuid]);
  });

  it('two events with the same uuid need two acknowledgements', () => {
    const a = event(1);
    expect(uuidsOf(journal(addBody(a), addBody(a), ackBody([a.uuid])))).toEqual([a.uuid]);
    expect(uuidsOf(journal(addBody(a), addBody(a), ackBody([a.uuid]), ackBody([a.uuid])))).toEqual([]);
  });
});

describe('damage', () => {
  const events = Array.from({ length: 5 }, (_, i) => event(i));
  const whole = journal(HEADER_BODY, ...events.map(addBody));

  it('a torn last record is ignored and measured; every whole record is read', () => {
    for (const cut of [1, 9, 30, 100]) {
      const torn = whole.subarray(0, whole.length - cut);
      const replay = parseJournal(torn);
      expect(replay.live.map((r) => r.event)).toEqual(events.slice(0, 4));
      expect(replay.tornBytes).toBe(torn.length - whole.lastIndexOf(0x0a, whole.length - 2) - 1);
      expect(replay.corrupt).toBe(0);
    }
  });

  it('a flipped byte in the middle costs that record only, and says where it was', () => {
    const damaged = Buffer.from(whole);
    const third = damaged.indexOf(events[2]!.uuid);
    damaged[third + 60]! ^= 0x01;
    const replay = parseJournal(damaged);
    expect(replay.live.map((r) => r.event)).toEqual([events[0], events[1], events[3], events[4]]);
    expect(replay.corrupt).toBe(1);
    expect(damaged.lastIndexOf(0x0a, replay.firstCorruptOffset - 1)).toBe(replay.firstCorruptOffset - 1);
  });

  it('a block of zeros (unwritten page after a power cut) swallows only the records it touches', () => {
    const damaged = Buffer.concat([whole.subarray(0, HEADER_BYTES + 10), Buffer.alloc(4096), whole.subarray(HEADER_BYTES + 10)]);
    const replay = parseJournal(damaged);
    expect(replay.live.map((r) => r.event)).toEqual(events.slice(1));
    expect(replay.corrupt).toBe(1);
  });

  it('a damaged acknowledgement resurrects its events (a resend, never a loss)', () => {
    const ack = Buffer.from(frameRecord(ackBody([events[0]!.uuid])));
    ack[12]! ^= 0xff;
    expect(uuidsOf(Buffer.concat([whole, ack]))).toEqual(events.map((e) => e.uuid));
  });

  it('garbage that is not a journal at all yields nothing live and never throws', () => {
    const replay = parseJournal(Buffer.from('hello\nworld\n\n\u0000\u0001\n not hex 12345678\n'));
    expect(replay).toMatchObject({ live: [], corrupt: 5, version: undefined });
  });

  it('reads the format version from the header', () => {
    expect(parseJournal(journal('H hogtail-journal 7', addBody(events[0]!))).version).toBe(7);
    expect(parseJournal(Buffer.alloc(0))).toMatchObject({ version: undefined, live: [], corrupt: 0, tornBytes: 0 });
  });
});
