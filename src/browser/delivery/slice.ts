/**
 * The delivery layer's slice of the runtime (runtime.ts): where events go, the queue that batches
 * and retries them, and the ledger that keeps them in storage until the server has them.
 */
import type { Queue } from '../../core/queue';
import type { Ledger } from './ledger';
import type { Endpoint } from './send-batch';

export interface DeliverySlice {
  readonly endpoint_: Endpoint;
  readonly queue_: Queue;
  readonly ledger_: Ledger;
}
