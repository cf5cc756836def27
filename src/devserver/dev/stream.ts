/**
 * `/_dev/stream`: server-sent events for the page. Each `events` message carries new events and the
 * last one's seq as its id, so a reconnecting EventSource (which sends Last-Event-ID) gets what it
 * missed. `changed` says the side panels are stale (a rejection, a decide, a flags reload);
 * `cleared` that everything shown so far was cleared.
 *
 * A page lists what a person can read, not a flood: new events go out at most every FLUSH_MS, and
 * when more than MAX_PER_FLUSH arrived in between (an import, a load test), only the newest go, after
 * a `skipped` message that says how many older ones were left out (they are stored; a search finds
 * them). Serialising every event for the page was a fifth of the dev server's ingest time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevStore, StoredEvent } from './store';

export interface EventStream {
  handle(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void;
  /** Tells every open page that the panels changed. */
  changed(what: string): void;
  close(): void;
}

export const MAX_PER_FLUSH = 500;
const FLUSH_MS = 100;
const CHUNK = 200;
const HEARTBEAT_MS = 15_000;
/**
 * A page that stopped reading (a suspended laptop, a stalled tab) would otherwise make the server
 * queue every later event for it in memory. Past this much unsent, the stream is cut; the browser's
 * EventSource reconnects with Last-Event-ID and gets what it missed from the store.
 */
export const MAX_UNSENT_BYTES = 8 * 1024 * 1024;

export function createEventStream(store: DevStore, maxUnsentBytes = MAX_UNSENT_BYTES): EventStream {
  const clients = new Set<ServerResponse>();

  const send = (res: ServerResponse, message: string): void => {
    if (res.destroyed || res.writableEnded) return;
    if (res.writableLength > maxUnsentBytes) {
      clients.delete(res);
      res.destroy();
      return;
    }
    res.write(message);
  };
  /**
   * The newest MAX_PER_FLUSH of `events`, after a `skipped` message for the rest and for `skipped`
   * older ones the flusher already left out.
   */
  const sendEvents = (res: ServerResponse, events: readonly StoredEvent[], skipped = 0): void => {
    const start = Math.max(0, events.length - MAX_PER_FLUSH);
    const firstSent = events[start];
    if (start + skipped > 0 && firstSent !== undefined) {
      send(res, `event: skipped\ndata: ${JSON.stringify({ count: start + skipped, before: firstSent.seq })}\n\n`);
    }
    for (let from = start; from < events.length; from += CHUNK) {
      const chunk = events.slice(from, from + CHUNK);
      send(res, `id: ${chunk[chunk.length - 1]?.seq ?? 0}\nevent: events\ndata: ${JSON.stringify(chunk)}\n\n`);
    }
  };
  const broadcast = (message: string): void => {
    for (const res of clients) send(res, message);
  };

  const flusher = createFlusher((events, skipped) => {
    for (const res of clients) sendEvents(res, events, skipped);
    broadcast(`event: changed\ndata: "events"\n\n`);
  });
  const unsubscribe = store.subscribe((change) => {
    if (change.kind === 'events') return flusher.add(change.events);
    // Whatever was waiting goes first, so a page never sees a clear before the events it clears.
    flusher.flushNow();
    if (change.kind === 'cleared') broadcast('event: cleared\ndata: {}\n\n');
    broadcast(`event: changed\ndata: ${JSON.stringify(change.kind)}\n\n`);
  });

  // Comments keep proxies and idle timeouts from closing a quiet stream; unref'd so they never hold the process.
  const heartbeat = setInterval(() => broadcast(': keep-alive\n\n'), HEARTBEAT_MS);
  heartbeat.unref();

  return {
    handle(req, res, query) {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Content-Type-Options': 'nosniff',
      });
      send(res, 'retry: 1000\n\n');
      // Events still waiting for the next flush belong to the other pages; this one gets them in its backlog.
      flusher.flushNow();
      const header = req.headers['last-event-id'];
      const resumeFrom = Number(typeof header === 'string' ? header : (query.get('after') ?? NaN));
      const backlog = Number.isFinite(resumeFrom)
        ? store.query({ after: resumeFrom, limit: Number.MAX_SAFE_INTEGER })
        : store.query({ limit: MAX_PER_FLUSH });
      sendEvents(res, backlog);
      // Tells the page the backlog is complete, so it can say "no events yet" instead of "loading".
      send(res, `event: ready\ndata: ${JSON.stringify({ total: store.visibleEvents() })}\n\n`);
      clients.add(res);
      res.on('close', () => clients.delete(res));
    },
    changed(what) {
      broadcast(`event: changed\ndata: ${JSON.stringify(what)}\n\n`);
    },
    close() {
      unsubscribe();
      flusher.cancel();
      clearInterval(heartbeat);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}

interface Flusher {
  add(events: readonly StoredEvent[]): void;
  flushNow(): void;
  cancel(): void;
}

/**
 * Collects events and hands them on at most every FLUSH_MS: at once when the last flush was longer
 * ago (a single event shows without delay), else when the interval is over. Keeps only the newest
 * MAX_PER_FLUSH and a count of the others, so a flood costs the page and the server next to nothing.
 */
function createFlusher(flush: (events: readonly StoredEvent[], skipped: number) => void): Flusher {
  let pending: StoredEvent[] = [];
  let skipped = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastFlush = 0;

  const cancel = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  const flushNow = (): void => {
    cancel();
    if (pending.length === 0) return;
    const events = pending;
    const left = skipped;
    pending = [];
    skipped = 0;
    lastFlush = Date.now();
    flush(events, left);
  };
  return {
    add(events) {
      for (const event of events) pending.push(event);
      // Trimmed now and then rather than per event: one copy per MAX_PER_FLUSH events.
      if (pending.length > 2 * MAX_PER_FLUSH) {
        skipped += pending.length - MAX_PER_FLUSH;
        pending = pending.slice(-MAX_PER_FLUSH);
      }
      if (timer !== undefined) return;
      timer = setTimeout(flushNow, Math.max(0, lastFlush + FLUSH_MS - Date.now()));
      timer.unref();
    },
    flushNow,
    cancel,
  };
}
