/**
 * `/_dev/stream`: server-sent events for the page. Each `events` message carries the new events and
 * the last one's seq as its id, so a reconnecting EventSource (which sends Last-Event-ID) gets exactly
 * what it missed. `changed` says the side panels are stale (a rejection, a decide, a flags reload);
 * `cleared` that everything shown so far was cleared.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DevStore, StoredEvent } from './store';

export interface EventStream {
  handle(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): void;
  /** Tells every open page that the panels changed. */
  changed(what: string): void;
  close(): void;
}

const BACKLOG = 500;
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
  const eventsMessage = (events: readonly StoredEvent[]): string => {
    const last = events[events.length - 1];
    return `id: ${last?.seq ?? 0}\nevent: events\ndata: ${JSON.stringify(events)}\n\n`;
  };
  const sendEvents = (res: ServerResponse, events: readonly StoredEvent[]): void => {
    for (let start = 0; start < events.length; start += CHUNK) send(res, eventsMessage(events.slice(start, start + CHUNK)));
  };
  const broadcast = (message: string): void => {
    for (const res of clients) send(res, message);
  };

  const unsubscribe = store.subscribe((change) => {
    if (change.kind === 'events') {
      for (const res of clients) sendEvents(res, change.events);
    }
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
      const header = req.headers['last-event-id'];
      const resumeFrom = Number(typeof header === 'string' ? header : (query.get('after') ?? NaN));
      const backlog = Number.isFinite(resumeFrom)
        ? store.query({ after: resumeFrom, limit: Number.MAX_SAFE_INTEGER })
        : store.query({ limit: BACKLOG });
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
      clearInterval(heartbeat);
      for (const res of clients) res.end();
      clients.clear();
    },
  };
}
