/**
 * One /batch/ request from the page: core's createBatchSender specialised to what a page sends
 * (text/plain, so a cross-origin POST stays "simple" and needs no CORS preflight; gzip as decide
 * last allowed it; never a historical migration). Same body, URL and outcomes, fewer script-tag
 * bytes than the general factory and its options object.
 */
import { batchBody, batchUrl } from '../core/batch-sender';
import type { QueuedEvent } from '../core/event';
import { classifyResponse, noResponse, type DeliveryResult } from '../core/transport';
import { gzipBody } from './compress';
import { fetchExecutor } from './fetch-executor';

export async function sendBatch(
  apiKey: string,
  host: string,
  events: readonly QueuedEvent[],
  gzip: boolean,
  timeoutMs: number,
): Promise<DeliveryResult> {
  const json = batchBody(apiKey, events, false, new Date().toISOString());
  try {
    const body = gzip ? await gzipBody(json) : json;
    return classifyResponse(await fetchExecutor(batchUrl(host, gzip), body, timeoutMs, { 'Content-Type': 'text/plain' }));
  } catch (cause) {
    return noResponse(cause);
  }
}
