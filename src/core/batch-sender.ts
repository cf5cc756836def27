/**
 * Builds one /batch/ request from queued events and turns the outcome into a DeliveryResult.
 * The body is assembled from the stored JSON strings, never re-serialised.
 */
import type { QueuedEvent } from './event';
import { BROWSER_BUILD } from './build-flags';
import { BATCH_RESPONSE_CAP } from './response-caps';
import { classifyResponse, noResponse, type Compressor, type DeliveryResult, type HttpExecutor } from './transport';

export interface BatchSenderOptions {
  host: string;
  apiKey: string;
  executor: HttpExecutor;
  /** Omit to send plain JSON. */
  compress?: Compressor | undefined;
  historicalMigration?: boolean;
  timeoutMs: number;
  /** The servers send application/json; the browser text/plain, which needs no CORS preflight. */
  contentType: string;
  /**
   * How a gzip body is announced: 'header' (`Content-Encoding: gzip`, the server-SDK convention,
   * Node and edge) or 'query' (`?compression=gzip-js`, which a browser can send without a CORS
   * preflight). Default 'query'.
   */
  gzipSignal?: 'header' | 'query';
}

export type BatchSender = (events: readonly QueuedEvent[]) => Promise<DeliveryResult>;

/** The request body for these events, compressed when the sender compresses. */
export type BatchEncoder = (events: readonly QueuedEvent[]) => Uint8Array | string | Promise<Uint8Array | string>;

/** A body built ahead for exactly these events (prepared-bodies.ts), or undefined to build one now. */
export type PreparedBody = (events: readonly QueuedEvent[]) => Promise<Uint8Array | string> | undefined;

export function batchBody(apiKey: string, events: readonly QueuedEvent[], historicalMigration: boolean, sentAt: string): string {
  // No page sends a historical migration or gzip by header: not in the script tag (70 B gzip).
  // join() allocates the body once; += would build a rope of a thousand nodes to flatten later.
  // A loop, not .map: this runs in the queue's microtask, where a page's patched map must not reach.
  const items: string[] = [];
  for (const event of events) items.push(event.json);
  return (
    '{"api_key":' +
    JSON.stringify(apiKey) +
    (!BROWSER_BUILD && historicalMigration ? ',"historical_migration":true' : '') +
    ',"sent_at":"' +
    sentAt +
    '","batch":[' +
    items.join(',') +
    ']}'
  );
}

export function batchUrl(host: string, compressed: boolean): string {
  return host.replace(/\/+$/, '') + '/batch/' + (compressed ? '?compression=gzip-js' : '');
}

export function createBatchEncoder(options: BatchSenderOptions): BatchEncoder {
  const { apiKey, compress } = options;
  const historical = options.historicalMigration === true;
  return (events) => {
    const json = batchBody(apiKey, events, historical, new Date().toISOString());
    return compress ? compress(json) : json;
  };
}

export function createBatchSender(options: BatchSenderOptions, preparedBody?: PreparedBody): BatchSender {
  const { executor, timeoutMs } = options;
  const encode = createBatchEncoder(options);
  const compressed = options.compress !== undefined;
  const byHeader = !BROWSER_BUILD && compressed && options.gzipSignal === 'header';
  const url = batchUrl(options.host, compressed && !byHeader);
  const headers: Record<string, string> = { 'Content-Type': options.contentType };
  if (byHeader) headers['Content-Encoding'] = 'gzip';

  return async (events) => {
    try {
      const body = await (preparedBody?.(events) ?? encode(events));
      const response = await executor({ url, method: 'POST', body, headers, timeoutMs, maxResponseBytes: BATCH_RESPONSE_CAP });
      return classifyResponse(response, options.host);
    } catch (cause) {
      return noResponse(cause);
    }
  };
}
