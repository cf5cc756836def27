/**
 * The page's /batch/ sender, built once per page: core's batch sender on the page's executor, as
 * text/plain (a cross-origin POST stays "simple" and needs no CORS preflight), gzip'd when the
 * server last said it takes gzip, never a historical migration. The beacon (beacon.ts) sends the
 * same body to the same endpoint.
 */
import { createBatchSender, type BatchSender } from '../core/batch-sender';
import { gzipBody } from './compress';
import { createPageExecutor } from './fetch-executor';

/** Where and how this page sends events. `gzip` changes when a flags answer says what the server takes. */
export interface Endpoint {
  readonly apiKey: string;
  readonly host: string;
  gzip: boolean;
  readonly timeoutMs: number;
}

/** `onKeepalive`: told when fetch() has taken a batch request as keepalive (fetch-executor.ts). */
export function createPageSender(endpoint: Endpoint, onKeepalive?: () => void): BatchSender {
  const options = { ...endpoint, executor: createPageExecutor(onKeepalive), contentType: 'text/plain' };
  // Both built now; each request takes the one `gzip` says, as it is then.
  const plain = createBatchSender(options);
  const gzipped = createBatchSender({ ...options, compress: gzipBody });
  return (events) => (endpoint.gzip ? gzipped : plain)(events);
}
