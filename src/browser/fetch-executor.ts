/**
 * The page's two ways to move bytes, both behind core's transport contract. Every request (batch,
 * flags) goes through `pageExecutor`: core's one fetch executor on the page's fetch, with
 * `keepalive`, so a request in flight when the page goes away still completes (it counts against
 * the same 64 KB budget as sendBeacon, hence the size limit). While the browser says it is offline
 * no request is attempted: the send waits for the `online` event (or a minute, in case the flag is
 * wrong), so an offline spell costs no retries and ends the moment the network is back. At pagehide
 * `sendBeaconRequest` hands a body to sendBeacon, which answers only whether the browser took it.
 */
import { createFetchExecutor } from '../core/fetch-executor';
import { attempt } from '../core/safe-json';
import type { HttpRequest } from '../core/transport';

/** Bodies at most this big go as keepalive requests; the browser's budget for all of them is 64 KB. */
export const KEEPALIVE_MAX_BYTES = 60_000;

/** What one sendBeacon may carry (the same 64 KB budget, shared with keepalive requests in flight). */
export const BEACON_MAX_BYTES = 65_000;

function online(): Promise<unknown> | undefined {
  if (navigator.onLine !== false) return undefined;
  return new Promise((resolve) => {
    addEventListener('online', resolve, { once: true });
    setTimeout(resolve, 60_000);
  });
}

/**
 * The page's executor. The page's fetch is looked up at each request, so a fetch the app patches
 * later is the one used. `onKeepalive` is told each time fetch() has taken a request as keepalive:
 * from then on it outlives the page (unload.ts counts its events as in flight only then).
 */
export const createPageExecutor = (onKeepalive?: () => void) =>
  createFetchExecutor(
    (url, init) => {
      const sent = fetch(url, init);
      if (init.keepalive) onKeepalive?.();
      return sent;
    },
    { ready: online, keepaliveMaxChars: KEEPALIVE_MAX_BYTES },
  );

/** Every request of the page but its batches (send-batch.ts makes its own, which says when one is keepalive). */
export const pageExecutor = /*#__PURE__*/ createPageExecutor();

/**
 * A POST by sendBeacon (text/plain: no preflight). True when the browser took it, which is not
 * that it arrived; false for a body over the budget, a browser without sendBeacon, or one that
 * refuses (some throw instead of answering false).
 */
export function sendBeaconRequest({ url, body }: Pick<HttpRequest, 'url' | 'body'>): boolean {
  if (typeof navigator.sendBeacon !== 'function') return false;
  const blob = new Blob([(body ?? '') as BlobPart], { type: 'text/plain' });
  return blob.size <= BEACON_MAX_BYTES && attempt(() => navigator.sendBeacon(url, blob), false);
}
