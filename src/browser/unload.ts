/**
 * Leaving the page. pagehide hands events that are not in a request in flight to sendBeacon:
 * first those no storage holds (beyond the stored cap, or no storage at all), since the stored
 * ones are safe for the next page anyway; what the beacon cannot carry of those is lost, and the
 * count is handed to `onLost` so the next page reports it. A hidden page flushes (often the last
 * moment a mobile page runs). The batch sender goes through here so the events of the request in
 * flight are known at pagehide.
 *
 * "In flight" starts when fetch() has the request as keepalive, not when the batch is taken: its
 * body may still be compressing (or the browser offline, or the body too big for keepalive), and a
 * page that goes then never sends it; those events would wait for the visitor's next visit. Until
 * then the beacon takes them too, and a request that still goes out later (a page restored from
 * the back-forward cache) is a duplicate with the same uuids.
 */
import type { BatchSender } from '../core/batch-sender';
import type { QueuedEvent } from '../core/event';
import type { Queue } from '../core/queue';
import { sendByBeacon } from './beacon';
import type { Ledger } from './ledger';
import { createPageSender, type Endpoint } from './send-batch';
import type { Tabs } from './tabs';

export interface Unload {
  /** The page's batch sender (send-batch.ts), noting which events are in flight. */
  send: BatchSender;
  /** Starts listening once the queue and the tab lock exist; `beforeLeave` runs first at pagehide. */
  watch(queue: Queue, tabs: Tabs, beforeLeave: () => void): void;
}

/** `log` is told of every request and its outcome (debug mode). */
export function createUnload(endpoint: Endpoint, ledger: Ledger, log: (message: string) => void, onLost: (count: number) => void): Unload {
  const inFlight = new Set<string>();
  /** The batch being sent (one at a time): in flight once its request is keepalive. */
  let sending: readonly QueuedEvent[] = [];
  const sendBatch = createPageSender(endpoint, () => {
    for (const event of sending) inFlight.add(event.uuid);
  });
  let leaving = false;
  return {
    send(events) {
      // Stored before they are on the wire (a request may start in the task that captured them):
      // the page may go while the request is out.
      ledger.flush();
      sending = events;
      log(`sending ${events.length} event(s) to ${endpoint.host}`);
      return sendBatch(events)
        .then((result) => (log(`${events.length} event(s): ${result.kind === 'ok' ? 'delivered' : result.message}`), result))
        .finally(() => inFlight.clear());
    },
    watch(queue, tabs, beforeLeave) {
      addEventListener('pagehide', (event) => {
        leaving = true;
        beforeLeave();
        // Events in a keepalive request are left out: it outlives the page. (They stay stored for
        // the next page too, in case it fails.)
        const unstored = ledger.unstored().filter((e) => !inFlight.has(e.uuid));
        const waiting = new Set(unstored);
        const stored = ledger.list().filter((e) => !inFlight.has(e.uuid) && !waiting.has(e));
        // Unstored first, then as many stored ones as still fit (those would also reach the next page).
        const sent = unstored.length + stored.length > 0 ? sendByBeacon(endpoint, unstored.concat(stored)) : 0;
        if (sent < unstored.length) onLost(unstored.length - sent);
        if (!event.persisted) tabs.leave();
      });
      addEventListener('pageshow', () => (leaving = false));
      // A tab switch keeps the page alive, so this is an ordinary (keepalive) send whose answer
      // we still get.
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden' && !leaving) void queue.flush();
      });
    },
  };
}
