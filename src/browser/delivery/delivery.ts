/**
 * The delivery pipeline of one page: core's queue for batching and retry, the ledger that keeps
 * every event in localStorage until a 2xx, the tab lock that decides which tab sends which stored
 * events, and the unload handling.
 */
import { DroppedEventsError } from '../../core/errors';
import { createQueue } from '../../core/queue';
import { uuidv7 } from '../../core/uuid';
import { numberOption } from '../config';
import { createLedger } from './ledger';
import type { DeliverySlice } from './slice';
import { runHooks } from '../features/hooks';
import type { Runtime } from '../runtime';
import { readKey, removeKey, writeKey } from '../state/storage';
import { startTabs } from './tabs';
import { createUnload } from './unload';

/** `rt` is still being built: its config, endpoint, reporter and base are set. */
export function startDelivery(store: Storage | undefined, rt: Runtime): Pick<DeliverySlice, 'queue_' | 'ledger_'> {
  const { config_: config, base_: base } = rt;
  const tabId = uuidv7();
  const ledger = createLedger(
    store,
    base + 'q|',
    tabId,
    numberOption(config.max_stored_events, 2_000),
    numberOption(config.max_stored_chars, 1_500_000),
  );
  // Events an earlier page could neither store nor beacon: counted and reported here, once.
  const lostKey = base + 'lost';
  const lostBefore = Number(readKey(store, lostKey)) || 0;
  const unload = createUnload(
    rt.endpoint_,
    ledger,
    (message) => rt.verbose_ && rt.debug(message),
    (count) => writeKey(store, lostKey, String((Number(readKey(store, lostKey)) || 0) + count)),
  );
  const queue = createQueue(
    {
      send_: unload.send_,
      // request_batching: false (posthog-js) sends each event as it comes.
      flushAt_: config.request_batching === false ? 1 : Math.max(1, numberOption(config.flush_at, 20)),
      flushIntervalMs_: numberOption(config.flush_interval, 2_000),
      maxBatchSize_: 500,
      maxBatchBytes_: 1_000_000,
      maxQueueSize_: Math.max(1, numberOption(config.max_queue_size, 20_000)),
      maxQueueBytes_: 40_000_000,
      persistence_: ledger,
      onDrop_: rt.report_,
      onRetry_: rt.report_,
      onWarning_: rt.report_,
    }, // a page never closes its queue (pagehide hands what is left to the beacon): close() is not in the bundle
  );
  if (lostBefore > 0) {
    removeKey(store, lostKey);
    queue.countDrop('queue_full', lostBefore);
    const error = new DroppedEventsError(
      `${lostBefore} event(s) of an earlier page lost: over max_stored_events / max_stored_chars and too many for its unload beacon. Raise the limits or capture less.`,
      'queue_full',
      [],
    );
    rt.report_(Object.assign(error, { count: lostBefore }));
  }
  const tabs = startTabs(store, base, tabId, ledger, (events) => queue.restore(events));
  unload.watch_(queue, tabs, () => runHooks(rt, 'onUnload'));
  return { queue_: queue, ledger_: ledger };
}
