/**
 * `hogtail dev`'s event and rejection store: the daily NDJSON logs on disk, the recent ones in memory,
 * queries for the page, and change notifications for the live stream.
 */
import { dayOf, openDailyLog } from './log-files';
import { isPlainObject } from '../ingest/json-shape';
import type { ReceivedEvent, Rejection } from '../ingest/types';

/** An event as `hogtail dev` keeps it: `seq` is its position among all events ever stored, from 1. */
export interface StoredEvent extends ReceivedEvent {
  seq: number;
}

export interface DevRejection extends Rejection {
  /** When it was refused, ISO 8601. */
  at: string;
  method: string;
}

export type StoreChange = { kind: 'events'; events: readonly StoredEvent[] } | { kind: 'rejection'; rejection: DevRejection };

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
  /** Events in memory, oldest first: the latest `maxEventsInMemory`. The disk keeps them all. */
  events(): readonly StoredEvent[];
  /** Events ever stored, those loaded at start included. */
  totalEvents(): number;
  /** Recent rejections in memory, oldest first. */
  rejections(): readonly DevRejection[];
  totalRejections(): number;
  /** Every rejection ever stored, counted by status and reason. */
  rejectionCounts(): ReadonlyMap<string, { status: number; reason: string; count: number }>;
  /** What the start found on disk. */
  readonly loaded: { events: number; rejections: number; skippedLines: number };
  /** Writes to disk first and throws if that fails, so nothing unsaved is acknowledged. */
  addEvents(events: readonly ReceivedEvent[]): StoredEvent[];
  addRejection(rejection: Omit<DevRejection, 'at'>): DevRejection;
  query(query: EventQuery): StoredEvent[];
  subscribe(listener: (change: StoreChange) => void): () => void;
}

export interface DevStoreOptions {
  /** Sees every event loaded from disk, those beyond the memory cap too, to rebuild derived state. */
  onLoadEvent?: (event: ReceivedEvent) => void;
  maxEventsInMemory?: number;
  maxRejectionsInMemory?: number;
}

export function createDevStore(dataDir: string, options: DevStoreOptions = {}): DevStore {
  const maxEvents = options.maxEventsInMemory ?? 100_000;
  const maxRejections = options.maxRejectionsInMemory ?? 1_000;
  const eventLog = openDailyLog(dataDir, 'events');
  const rejectionLog = openDailyLog(dataDir, 'rejections');
  const listeners = new Set<(change: StoreChange) => void>();
  const events: StoredEvent[] = [];
  const rejections: DevRejection[] = [];
  const counts = new Map<string, { status: number; reason: string; count: number }>();
  let totalEvents = 0;
  let totalRejections = 0;

  const keepEvent = (event: ReceivedEvent): StoredEvent => {
    const stored: StoredEvent = { ...event, seq: ++totalEvents };
    events.push(stored);
    return stored;
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
    if (events.length > maxEvents * 1.1) events.splice(0, events.length - maxEvents);
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

  const loadedEvents = eventLog.readAll();
  for (const record of loadedEvents.records) {
    if (!looksLikeEvent(record)) continue;
    keepEvent(record);
    options.onLoadEvent?.(record);
  }
  const loadedRejections = rejectionLog.readAll();
  for (const record of loadedRejections.records) if (looksLikeRejection(record)) keepRejection(record);
  trim();

  return {
    dataDir,
    events: () => events,
    totalEvents: () => totalEvents,
    rejections: () => rejections,
    totalRejections: () => totalRejections,
    rejectionCounts: () => counts,
    loaded: {
      events: totalEvents,
      rejections: totalRejections,
      skippedLines: loadedEvents.skippedLines + loadedRejections.skippedLines,
    },
    addEvents(batch) {
      const first = batch[0];
      if (first === undefined) return [];
      eventLog.append(batch, dayOf(first.receivedAt));
      const stored = batch.map(keepEvent);
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
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
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
