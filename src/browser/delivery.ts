/**
 * The delivery pipeline of one page: core's queue for batching and retry, the ledger that keeps
 * every event in localStorage until a 2xx, the tab lock that decides which tab sends which stored
 * events, and the unload handling.
 */
import type { HogtailError } from '../core/errors';
import { createQueue, type Queue } from '../core/queue';
import { numberOption } from './config';
import type { HogtailConfig } from './hogtail';
import { createLedger, type Ledger } from './ledger';
import type { Endpoint } from './send-batch';
import { startTabs } from './tabs';
import { createUnload } from './unload';

export function startDelivery(
  store: Storage | undefined,
  base: string,
  tabId: string,
  config: HogtailConfig,
  endpoint: Endpoint,
  report: (error: HogtailError) => void,
): { queue: Queue; ledger: Ledger } {
  const ledger = createLedger(
    store,
    base + 'q|',
    tabId,
    numberOption(config.max_stored_events, 2_000),
    numberOption(config.max_stored_chars, 1_500_000),
  );
  const unload = createUnload(endpoint, ledger);
  const queue = createQueue(
    {
      send: unload.send,
      flushAt: Math.max(1, numberOption(config.flush_at, 20)),
      flushIntervalMs: numberOption(config.flush_interval, 2_000),
      maxBatchSize: 500,
      maxBatchBytes: 1_000_000,
      maxQueueSize: Math.max(1, numberOption(config.max_queue_size, 20_000)),
      maxQueueBytes: 40_000_000,
      persistence: ledger,
      onDrop: report,
      onRetry: report,
      onWarning: report,
    }, // a page never closes its queue (pagehide hands what is left to the beacon): close() is not in the bundle
  );
  const tabs = startTabs(store, base, tabId, ledger, (events) => queue.restore(events));
  unload.watch(queue, tabs);
  return { queue, ledger };
}
