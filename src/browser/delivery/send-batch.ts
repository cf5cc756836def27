/**
 * One /batch/ request from the page: core's batch sender on the fetch executor, as text/plain
 * (a cross-origin POST stays "simple" and needs no CORS preflight), gzip'd when the server last
 * said it takes gzip, never a historical migration. The beacon (beacon.ts) sends the same body to
 * the same endpoint; both take (endpoint, events).
 */
import { createBatchSender } from '../../core/batch-sender';
import type { QueuedEvent } from '../../core/event';
import type { DeliveryResult } from '../../core/transport';
import { gzipBody } from './compress';
import { fetchExecutor } from './fetch-executor';

/** Where and how this page sends events. `gzip` changes when a flags answer says what the server takes. */
export interface Endpoint {
  readonly apiKey: string;
  readonly host: string;
  gzip: boolean;
  readonly timeoutMs: number;
}

export function sendBatch(endpoint: Endpoint, events: readonly QueuedEvent[]): Promise<DeliveryResult> {
  const { apiKey, host, gzip, timeoutMs } = endpoint;
  // Built per request: cheap next to the request, and it follows `gzip` as it changes.
  return createBatchSender({
    host,
    apiKey,
    executor: fetchExecutor,
    compress: gzip ? gzipBody : undefined,
    timeoutMs,
    contentType: 'text/plain',
  })(events);
}
