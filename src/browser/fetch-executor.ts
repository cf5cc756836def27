/**
 * The browser's HttpExecutor (core's transport contract): fetch with `keepalive`, so a request in
 * flight when the page goes away still completes (it counts against the same 64 KB budget as
 * sendBeacon, hence the size check). While the browser says it is offline no request is
 * attempted: the send waits for the `online` event (or a minute, in case the flag is wrong), so
 * an offline spell costs no retries and ends the moment the network is back.
 */
import type { HttpExecutor } from '../core/transport';

/** Bodies at most this big go as keepalive requests; the browser's budget for all of them is 64 KB. */
export const KEEPALIVE_MAX_BYTES = 60_000;

export const fetchExecutor: HttpExecutor = async ({ url, body, headers, timeoutMs }) => {
  if (navigator.onLine === false) {
    await new Promise((resolve) => {
      addEventListener('online', resolve, { once: true });
      setTimeout(resolve, 60_000);
    });
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: body as BodyInit,
      keepalive: body.length <= KEEPALIVE_MAX_BYTES,
      signal: controller.signal,
    });
    return { status: response.status, body: await response.text(), retryAfter: response.headers.get('Retry-After') };
  } finally {
    clearTimeout(timer);
  }
};
