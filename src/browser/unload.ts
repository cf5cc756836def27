/**
 * Leaving the page. pagehide hands the stored events that are not in a request in flight to
 * sendBeacon; a hidden page flushes (often the last moment a mobile page runs). The batch sender
 * goes through here so the events of the request in flight are known at pagehide.
 */
import type { BatchSender } from '../core/batch-sender';
import type { Queue } from '../core/queue';
import { sendByBeacon } from './beacon';
import type { Ledger } from './ledger';
import { sendBatch, type Endpoint } from './send-batch';
import type { Tabs } from './tabs';

export interface Unload {
  /** The page's batch sender (send-batch.ts), noting which events are in flight. */
  send: BatchSender;
  /** Starts listening once the queue and the tab lock exist. */
  watch(queue: Queue, tabs: Tabs): void;
}

export function createUnload(endpoint: Endpoint, ledger: Ledger): Unload {
  const inFlight = new Set<string>();
  let leaving = false;
  return {
    send(events) {
      for (const event of events) inFlight.add(event.uuid);
      return sendBatch(endpoint, events).finally(() => inFlight.clear());
    },
    watch(queue, tabs) {
      addEventListener('pagehide', (event) => {
        leaving = true;
        // Events in a request in flight are left out: the request is keepalive (it outlives the
        // page) or, if too big for that, cancelled; either way they stay stored for the next
        // page, and no event is ever in two requests at once.
        const pending = ledger.list().filter((e) => !inFlight.has(e.uuid));
        if (pending.length > 0) sendByBeacon(endpoint, pending);
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
