/**
 * The journal's record format, kept apart from any file handling so it can be checked byte by byte.
 *
 * One record per line: `<crc32 as 8 hex digits> <body>\n`, the checksum over the body's UTF-8
 * bytes. Lines because event JSON never holds a raw newline, so a reader can resynchronise after any
 * damage at the next newline; a checksum because a power loss can leave a page of zeros or stale
 * bytes in the middle of a file, which a length prefix alone would read as data. Bodies:
 *
 *   H hogtail-journal 1        header: format version, first in every journal
 *   A <uuid> <event json>      an event was queued (the exact bytes that go on the wire)
 *   K <uuid> <uuid> …          these events left the queue (delivered, rejected or evicted)
 *
 * Nothing is ever rewritten in place: a new journal replaces the old by rename (compaction).
 */
import type { QueuedEvent } from '../../core/event';
import { crc32 } from './crc32';

export const JOURNAL_VERSION = 1;
const HEADER_PREFIX = 'H hogtail-journal ';
export const HEADER_BODY = HEADER_PREFIX + JOURNAL_VERSION;

const NEWLINE = 0x0a;
const SPACE = 0x20;
const UUID_LENGTH = 36;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** Frame overhead: 8 hex digits, a space, the newline. */
const OVERHEAD = 10;

export function addBody(event: QueuedEvent): string {
  return 'A ' + event.uuid + ' ' + event.json;
}

export function ackBody(uuids: readonly string[]): string {
  return 'K ' + uuids.join(' ');
}

// One buffer reused for every record: a fresh allocation per capture() was measurable garbage.
const scratch = Buffer.allocUnsafe(256 * 1024);

/**
 * Frames one body. The bytes returned are only valid until the next call (they live in a shared
 * buffer); write them at once.
 */
export function frameRecord(body: string): Buffer {
  // Most bodies are ASCII; measure exactly only when the cheap bound does not fit.
  if (body.length * 3 + OVERHEAD > scratch.length && Buffer.byteLength(body) + OVERHEAD > scratch.length) {
    // Grow for this one only: a single 1 MB event should not pin megabytes for the process's life.
    return frameInto(Buffer.allocUnsafe(Buffer.byteLength(body) + OVERHEAD), body);
  }
  return frameInto(scratch, body);
}

function frameInto(target: Buffer, body: string): Buffer {
  const end = 9 + target.write(body, 9, 'utf8');
  target[end] = NEWLINE;
  const crc = crc32(target, 9, end);
  for (let i = 0; i < 8; i++) target[i] = HEX_DIGITS[(crc >>> (28 - 4 * i)) & 15]!;
  target[8] = SPACE;
  return target.subarray(0, end + 1);
}

export const HEADER_BYTES = Buffer.from(frameRecord(HEADER_BODY)).length;

/** An event found live in a journal, with the size of its record. */
export interface ReplayedRecord {
  event: QueuedEvent;
  bytes: number;
}

export interface Replay {
  /** Events queued and never acknowledged, in journal order. */
  live: ReplayedRecord[];
  liveBytes: number;
  /** Bytes after the last newline: a record a crash cut short. */
  tornBytes: number;
  /** Whole lines that failed their checksum or made no sense; skipped. */
  corrupt: number;
  firstCorruptOffset: number;
  /** From the header; undefined when there is none (an empty journal, or a damaged first line). */
  version: number | undefined;
}

/**
 * Reads every whole record. Never throws: damage is counted and skipped, so one bad sector costs
 * the events in it, not the journal.
 */
export function parseJournal(bytes: Buffer): Replay {
  const records: (ReplayedRecord | undefined)[] = [];
  // uuid -> indexes of its live add records, oldest first: an ack removes the oldest, so two
  // events captured with the same uuid (an app's own idempotency key) are both accounted for.
  const pending = new Map<string, number[]>();
  const replay: Replay = { live: [], liveBytes: 0, tornBytes: 0, corrupt: 0, firstCorruptOffset: -1, version: undefined };

  const damaged = (offset: number) => {
    if (replay.corrupt++ === 0) replay.firstCorruptOffset = offset;
  };

  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) {
      replay.tornBytes = bytes.length - start;
      break;
    }
    const body = checkedBody(bytes, start, end);
    if (body === undefined) {
      damaged(start);
    } else if (body.startsWith('A ') && body.charCodeAt(2 + UUID_LENGTH) === SPACE) {
      const uuid = body.slice(2, 2 + UUID_LENGTH);
      const index = records.push({ event: { uuid, json: body.slice(3 + UUID_LENGTH) }, bytes: end + 1 - start }) - 1;
      const list = pending.get(uuid);
      if (list === undefined) pending.set(uuid, [index]);
      else list.push(index);
    } else if (body.startsWith('K ')) {
      for (const uuid of body.slice(2).split(' ')) {
        const index = pending.get(uuid)?.shift();
        if (index !== undefined) records[index] = undefined;
      }
    } else if (body.startsWith(HEADER_PREFIX) && replay.version === undefined) {
      const version = Number(body.slice(HEADER_PREFIX.length));
      if (Number.isInteger(version)) replay.version = version;
      else damaged(start);
    } else {
      damaged(start);
    }
    start = end + 1;
  }

  for (const record of records) {
    if (record === undefined) continue;
    replay.live.push(record);
    replay.liveBytes += record.bytes;
  }
  return replay;
}

/** The body of the line bytes[start, end) if its checksum holds. */
function checkedBody(bytes: Buffer, start: number, end: number): string | undefined {
  if (end - start < OVERHEAD - 1 || bytes[start + 8] !== SPACE) return undefined;
  let expected = 0;
  for (let i = start; i < start + 8; i++) {
    const digit = hexValue(bytes[i]!);
    if (digit < 0) return undefined;
    expected = expected * 16 + digit;
  }
  if (crc32(bytes, start + 9, end) !== expected) return undefined;
  return bytes.toString('utf8', start + 9, end);
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  return -1;
}
