/**
 * The browser's HttpExecutor (core's transport contract): fetch with `keepalive`, so a request in
 * flight when the page goes away still completes (it counts against the same 64 KB budget as
 * sendBeacon, hence the size check). While the browser says it is offline no request is
 * attempted: the send waits for the `online` event (or a minute, in case the flag is wrong), so
 * an offline spell costs no retries and ends the moment the network is back.
 *
 * Hostile or broken answers cannot wedge or bloat the page: the deadline is enforced here as well
 * as by aborting (a patched fetch may ignore its AbortSignal and never settle), and the response
 * body is read only up to MAX_BODY_CHARS (the real server answers a few bytes; an app's catch-all
 * page or an endless stream must not fill memory or keep the request open).
 */
import type { HttpExecutor } from '../../core/transport';

/** Bodies at most this big go as keepalive requests; the browser's budget for all of them is 64 KB. */
export const KEEPALIVE_MAX_BYTES = 60_000;

/** Far more than any PostHog answer (flags included); the rest of a longer body is never read. */
export const MAX_BODY_CHARS = 1_000_000;

async function readCapped(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return (await response.text()).slice(0, MAX_BODY_CHARS);
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    text += decoder.decode(value, { stream: true });
    if (text.length >= MAX_BODY_CHARS) {
      reader.cancel().catch(() => {});
      return text.slice(0, MAX_BODY_CHARS);
    }
  }
}

export const fetchExecutor: HttpExecutor = async ({ url, body, headers, timeoutMs }) => {
  if (navigator.onLine === false) {
    await new Promise((resolve) => {
      addEventListener('online', resolve, { once: true });
      setTimeout(resolve, 60_000);
    });
  }
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  const exchange = async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: body as BodyInit,
      keepalive: body.length <= KEEPALIVE_MAX_BYTES,
      signal: controller.signal,
    });
    return { status: response.status, body: await readCapped(response), retryAfter: response.headers.get('Retry-After') };
  };
  try {
    return await Promise.race([exchange(), deadline]);
  } finally {
    clearTimeout(timer);
  }
};
