/**
 * `hogtail dev`'s event and rejection store: the daily NDJSON logs on disk, the recent ones in memory,
 * search over all of them, clearing, and change notifications for the live stream.
 */
import { dayOf, openDailyLog } from './log-files';
import { readClearState, writeClearState, type ClearState } from './clear-state';
import { createMemoryWindow, parseKept, type KeptEvent } from './memory-window';
import { createPageCollector } from './search';
import type { DevRejection, DevStore, DevStoreOptions, SearchPage, SearchQuery, StoreChange, StoredEvent } from './store-types';
import { isPlainObject } from '../ingest/json-shape';
import type { ReceivedEvent } from '../ingest/types';

export type { DevRejection, DevStore, DevStoreOptions, EventQuery, StoreChange, StoredEvent } from './store-types';

export async function openDevStore(dataDir: string, options: DevStoreOptions = {}): Promise<DevStore> {
  const maxEvents = options.maxEventsInMemory ?? 100_000;
  const maxEventBytes = options.maxEventBytesInMemory ?? 256 * 1024 * 1024;
  const maxRejections = options.maxRejectionsInMemory ?? 1_000;
  const eventLog = openDailyLog(dataDir, 'events');
  const rejectionLog = openDailyLog(dataDir, 'rejections');
  const listeners = new Set<(change: StoreChange) => void>();
  let state: ClearState = readClearState(dataDir);
  const memory = createMemoryWindow(maxEvents, maxEventBytes, maxRejections);
  const { rejections, counts, keepEvent, keepRejection, trim } = memory;
  let totalEvents = state.seqBase;

  const notify = (change: StoreChange): void => notifyAll(listeners, change);

  let skippedLines = 0;
  const eventsRead = await eventLog.readLines((line) => {
    const record = parseLine(line);
    if (!looksLikeEvent(record)) return void skippedLines++;
    const seq = ++totalEvents;
    if (seq <= state.clearedThrough) return;
    keepEvent({ seq, event: record.event, distinctId: record.distinct_id, line });
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
  const loaded = { events: totalEvents - state.seqBase, rejections: memory.totalRejections(), skippedLines };

  // Events appended while the scan runs belong to the next search: it stops at `totalEvents` now.
  const scanFiles = (query: SearchQuery): Promise<SearchPage> =>
    scanEventLog(eventLog, query, state.seqBase, state.clearedThrough, totalEvents);
  const scanMemory = (query: SearchQuery): SearchPage => scanKept(memory.events, query);

  return {
    dataDir,
    events: () => memory.events.map(parseKept),
    eventsInMemory: () => memory.events.length,
    eventsByName: () => memory.eventNames,
    totalEvents: () => totalEvents,
    visibleEvents: () => totalEvents - state.clearedThrough,
    rejections: () => rejections,
    totalRejections: () => memory.totalRejections(),
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
      const lines = eventLog.append(records, dayOf(first.receivedAt));
      // The records become the stored events: no copy per event on the ingest's hot path.
      const stored = records as StoredEvent[];
      stored.forEach((event, index) => {
        event.seq = ++totalEvents;
        keepEvent({ seq: event.seq, event: event.event, distinctId: event.distinct_id, line: lines[index] ?? '{}' } satisfies KeptEvent);
      });
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
    query: (query) => memory.query(query),
    async search(query) {
      return memory.events.length < totalEvents - state.clearedThrough ? scanFiles(query) : scanMemory(query);
    },
    clear({ deleteFiles }) {
      if (deleteFiles) {
        eventLog.removeAll();
        rejectionLog.removeAll();
      }
      state = { clearedThrough: totalEvents, seqBase: deleteFiles ? totalEvents : state.seqBase, clearedAt: new Date().toISOString() };
      writeClearState(dataDir, state);
      memory.clear();
      notify({ kind: 'cleared' });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Tells every watcher; one that fails (a page that went away mid-write) must not fail the capture. */
function notifyAll(listeners: Set<(change: StoreChange) => void>, change: StoreChange): void {
  for (const listener of listeners) {
    try {
      listener(change);
    } catch {
      // its own loss
    }
  }
}

/** The same search over the events in memory, which are known to be events. */
function scanKept(events: readonly KeptEvent[], query: SearchQuery): SearchPage {
  const collector = createPageCollector(query);
  const needle = rawNeedle(query);
  for (const kept of events) {
    if (needle !== undefined && !kept.line.toLowerCase().includes(needle)) collector.pass();
    else collector.offer(parseKept(kept));
  }
  return collector.page();
}

/** A search over the event logs on disk: the events numbered after `through`, up to `last`. */
async function scanEventLog(
  eventLog: ReturnType<typeof openDailyLog>,
  query: SearchQuery,
  seqBase: number,
  through: number,
  last: number,
): Promise<SearchPage> {
  const collector = createPageCollector(query);
  let seq = seqBase;
  const needle = rawNeedle(query);
  await eventLog.readLines((line) => {
    // Parsing is most of a scan's cost: a line whose text lacks the term cannot match, so only
    // its place in the sequence is counted (a complete object line is taken for an event).
    if (needle !== undefined && !line.toLowerCase().includes(needle)) {
      if (line.startsWith('{') && line.endsWith('}') && ++seq > through && seq <= last) collector.pass();
      return;
    }
    const record = parseLine(line);
    if (!looksLikeEvent(record)) return;
    seq++;
    if (seq > through && seq <= last) collector.offer({ ...record, seq });
  });
  return collector.page();
}

/** The search term as it appears in a stored line, when JSON writes it unescaped there. */
function rawNeedle(query: SearchQuery): string | undefined {
  const term = query.term.trim().toLowerCase();
  if (term === '' || query.event !== undefined || query.distinctId !== undefined) return undefined;
  // eslint-disable-next-line no-control-regex -- a term with control characters cannot be matched by the plain-text scan
  return /["\\\u0000-\u001f]/.test(term) ? undefined : term;
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
