/**
 * The shapes of `hogtail dev`'s store: what it keeps of an event and a refusal, what it tells its
 * watchers, and how it is asked for events. Apart from the store so the search can use them too.
 */
import type { ReceivedEvent, Rejection } from '../ingest/types';

/** An event as `hogtail dev` keeps it: `seq` is its position among all events ever stored, from 1. */
export interface StoredEvent extends ReceivedEvent {
  seq: number;
  /** What looked wrong but was accepted, e.g. a name that was not valid UTF-8. */
  warnings?: string[];
}

export interface DevRejection extends Rejection {
  /** When it was refused, ISO 8601. */
  at: string;
  method: string;
  /** The start of the body as received (decoded), when it was read. */
  sample?: string;
  /** Who sent it, from the Origin and User-Agent headers, when there were any. */
  sender?: string;
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
  /**
   * Events in memory, oldest first: the latest ones since the last clear, within the count and byte
   * caps. Parsed from their stored text on each call: for tests and scripts, not for a hot path.
   */
  events(): StoredEvent[];
  /** How many events `events()` would return. */
  eventsInMemory(): number;
  /** Events in memory counted by name. */
  eventsByName(): ReadonlyMap<string, number>;
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
  /**
   * Writes to disk first and throws if that fails, so nothing unsaved is acknowledged. The events
   * given become the stored ones: each gets its `seq` (an event with warnings is stored as a copy).
   */
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

export interface SearchQuery {
  /** Empty matches everything. */
  term: string;
  /** Exact event name and distinct id filters, as `/_dev/events` takes them. */
  event?: string;
  distinctId?: string;
  /** Only events older than this seq: the cursor of the next page. */
  before?: number;
  limit: number;
}

export interface SearchPage {
  events: StoredEvent[];
  /** Every event that matched, across all pages. */
  matched: number;
  /** Events looked at (every visible stored one). */
  searched: number;
  /** The cursor for the next (older) page; null on the last. */
  nextBefore: number | null;
}
