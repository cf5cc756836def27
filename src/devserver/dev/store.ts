/**
 * `hogtail dev`'s event and rejection store: the daily NDJSON logs on disk, the recent ones in memory,
 * search over all of them, clearing, and change notifications for the live stream.
 */
import { dayOf, openDailyLog } from './log-files';
import { readClearState, writeClearState, type ClearState } from './clear-state';
import { createPageCollector, type SearchPage, type SearchQuery } from './search';
import { isPlainObject } from '../ingest/json-shape';
import type { ReceivedEvent, Rejection } from '../ingest/types';
import type { StoredEvent } from './stored-event';

export type { StoredEvent } from './stored-event';

export interface DevRejection extends Rejection {
  /** When it was refused, ISO 8601. */
  at: string;
  method: string;
  /** The start of the body as received (decoded), when it was read. */
  sample?: string;
}

export type StoreChange =
  | { kind: 'events'; events: readonly StoredEvent[] }
  | { kind: 'rejection'; rejection: DevRejection }
  | { kind: 'cleared' };

export interface EventQuery {
  /** Most events returned, the newest matching ones. Default 100. */
  limit?: number;
  event?: string;
  distinctId?: string;
  /** Only events with a larger seq, for polling. */
  after?: number;
}

export interface DevStore {
  readonly dataDir: string;
  /** Events in memory, oldest first: the latest ones since the last clear, within the count and byte caps. */
  events(): readonly StoredEvent[];
  /** Events ever stored (the last seq), those loaded at start and those hidden by a clear included. */
  totalEvents(): number;
  /** Events stored since the last clear: what the page counts. */
  visibleEvents(): number;
  /** Recent rejections in memory since the last clear, oldest first. */
  rejections(): readonly DevRejection[];
  totalRejections(): number;
  /** Rejections since the last clear, counted by status and reason. */
  rejectionCounts(): ReadonlyMap<string, { status: number; reason: string; count: number }>;
  /** What the start found on disk (hidden events included). */
  readonly loaded: { events: number; rejections: number; skippedLines: number };
  /** Writes to disk first and throws if that fails, so nothing unsaved is acknowledged. */
  addEvents(events: readonly ReceivedEvent[], warnings?: ReadonlyMap<ReceivedEvent, string[]>): StoredEvent[];
  addRejection(rejection: Omit<DevRejection, 'at'>): DevRejection;
  query(query: EventQuery): StoredEvent[];
  /** Every visible event, from memory when it holds them all, else streamed from the files. */
  search(query: SearchQuery): Promise<SearchPage>;
  /** Hides everything stored so far; `deleteFiles` also removes the day files. */
  clear(options: { deleteFiles: boolean }): void;
  subscribe(listener: (change: StoreChange) => void): () => void;
}

export interface DevStoreOptions {
  /** Sees every visible event loaded from disk, those beyond the memory cap too, to rebuild derived state. */
  onLoadEvent?: (event: ReceivedEvent) => void;
  maxEventsInMemory?: number;
  /** Cap on the serialised size of the events kept in memory; 1 MB events reach it long before the count. */
  maxEventBytesInMemory?: number;
  maxRejectionsInMemory?: number;
}

type Count = { status: number; reason: string; count: number };

export async function openDevStore(dataDir: string, options: DevStoreOptions = {}): Promise<DevStore> {
  const maxEvents = options.maxEventsInMemory ?? 100_000;
  const maxEventBytes = options.maxEventBytesInMemory ?? 256 * 1024 * 1024;
  const maxRejections = options.maxRejectionsInMemory ?? 1_000;
  const eventLog = openDailyLog(dataDir, 'events');
  const rejectionLog = openDailyLog(dataDir, 'rejections');
  const listeners = new Set<(change: StoreChange) => void>();
  let state: ClearState = readClearState(dataDir);
  const events: StoredEvent[] = [];
  /** Serialised length of each event in `events`, same order, for the byte cap. */
  const sizes: number[] = [];
  let bytesInMemory = 0;
  const rejections: DevRejection[] = [];
  const counts = new Map<string, Count>();
  let totalEvents = state.seqBase;
  let totalRejections = 0;

  const keepEvent = (event: StoredEvent, size: number): void => {
    events.push(event);
    sizes.push(size);
    bytesInMemory += size;
  };
  const keepRejection = (rejection: DevRejection): void => {
    totalRejections++;
    rejections.push(rejection);
    const key = `${rejection.status} ${rejection.reason}`;
    const entry = counts.get(key) ?? { status: rejection.status, reason: rejection.reason, count: 0 };
    entry.count++;
    counts.set(key, entry);
  };
  // Trimmed in chunks: shifting one at a time would copy the whole array per event.
  const trim = (): void => {
    let drop = events.length > maxEvents * 1.1 ? events.length - maxEvents : 0;
    let freed = 0;
    for (let index = 0; index < drop; index++) freed += sizes[index] ?? 0;
    if (bytesInMemory > maxEventBytes) {
      while (drop < events.length - 1 && bytesInMemory - freed > maxEventBytes * 0.9) freed += sizes[drop++] ?? 0;
    }
    if (drop > 0) {
      events.splice(0, drop);
      sizes.splice(0, drop);
      bytesInMemory -= freed;
    }
    if (rejections.length > maxRejections * 1.1) rejections.splice(0, rejections.length - maxRejections);
  };
  const notify = (change: StoreChange): void => {
    for (const listener of listeners) {
      try {
        listener(change);
      } catch {
        // A watcher that fails (a page that went away mid-write) must not fail the capture.
      }
    }
  };

  let skippedLines = 0;
  const eventsRead = await eventLog.readLines((line) => {
    const record = parseLine(line);
    if (!looksLikeEvent(record)) return void skippedLines++;
    const seq = ++totalEvents;
    if (seq <= state.clearedThrough) return;
    keepEvent({ ...record, seq }, line.length);
    options.onLoadEvent?.(record);
    trim();
  });
  const rejectionsRead = await rejectionLog.readLines((line) => {
    const record = parseLine(line);
    if (!looksLikeRejection(record)) return void skippedLines++;
    if (state.clearedAt === null || record.at > state.clearedAt) keepRejection(record);
    trim();
  });
  skippedLines += eventsRead.overlong + rejectionsRead.overlong;
  const loaded = { events: totalEvents - state.seqBase, rejections: totalRejections, skippedLines };

  const scanFiles = async (query: SearchQuery): Promise<SearchPage> => {
    const collector = createPageCollector(query);
    let seq = state.seqBase;
    const through = state.clearedThrough;
    const last = totalEvents;
    await eventLog.readLines((line) => {
      const record = parseLine(line);
      if (!looksLikeEvent(record)) return;
      seq++;
      // Events appended while the scan runs belong to the next search.
      if (seq > through && seq <= last) collector.offer({ ...record, seq });
    });
    return collector.page();
  };

  return {
    dataDir,
    events: () => events,
    totalEvents: () => totalEvents,
    visibleEvents: () => totalEvents - state.clearedThrough,
    rejections: () => rejections,
    totalRejections: () => totalRejections,
    rejectionCounts: () => counts,
    loaded,
    addEvents(batch, warnings) {
      const first = batch[0];
      if (first === undefined) return [];
      // Warnings go to disk with the event, so a restart still flags it.
      const records = batch.map((event) => {
        const flagged = warnings?.get(event);
        return flagged === undefined ? event : { ...event, warnings: flagged };
      });
      const lengths = eventLog.append(records, dayOf(first.receivedAt));
      const stored = records.map((record): StoredEvent => ({ ...record, seq: ++totalEvents }));
      stored.forEach((event, index) => keepEvent(event, lengths[index] ?? 0));
      trim();
      notify({ kind: 'events', events: stored });
      return stored;
    },
    addRejection(rejection) {
      const stored: DevRejection = { ...rejection, at: new Date().toISOString() };
      try {
        rejectionLog.append([stored], dayOf(stored.at));
      } catch {
        // Losing the record of a refusal is harmless; the client already has its answer.
      }
      keepRejection(stored);
      trim();
      notify({ kind: 'rejection', rejection: stored });
      return stored;
    },
    query({ limit = 100, event, distinctId, after }) {
      const found: StoredEvent[] = [];
      for (let index = events.length - 1; index >= 0 && found.length < limit; index--) {
        const candidate = events[index];
        if (candidate === undefined) continue;
        if (after !== undefined && candidate.seq <= after) break;
        if (event !== undefined && candidate.event !== event) continue;
        if (distinctId !== undefined && candidate.distinct_id !== distinctId) continue;
        found.push(candidate);
      }
      return found.reverse();
    },
    async search(query) {
      if (events.length < totalEvents - state.clearedThrough) return scanFiles(query);
      const collector = createPageCollector(query);
      for (const event of events) collector.offer(event);
      return collector.page();
    },
    clear({ deleteFiles }) {
      if (deleteFiles) {
        eventLog.removeAll();
        rejectionLog.removeAll();
      }
      state = { clearedThrough: totalEvents, seqBase: deleteFiles ? totalEvents : state.seqBase, clearedAt: new Date().toISOString() };
      writeClearState(dataDir, state);
      events.length = 0;
      sizes.length = 0;
      bytesInMemory = 0;
      rejections.length = 0;
      counts.clear();
      totalRejections = 0;
      notify({ kind: 'cleared' });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

function looksLikeEvent(record: unknown): record is ReceivedEvent {
  return (
    isPlainObject(record) &&
    typeof record.event === 'string' &&
    typeof record.distinct_id === 'string' &&
    isPlainObject(record.properties) &&
    typeof record.receivedAt === 'string'
  );
}

function looksLikeRejection(record: unknown): record is DevRejection {
  return isPlainObject(record) && typeof record.status === 'number' && typeof record.reason === 'string' && typeof record.at === 'string';
}
