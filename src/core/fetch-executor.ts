/**
 * The one HttpExecutor on fetch, for every platform that has fetch: the page (its own fetch, with
 * keepalive and a wait while offline, handed in by src/browser/fetch-executor.ts), the edge client,
 * and Node when the user passes `fetch`. The deadline covers the whole exchange, body included, and
 * holds even against a fetch that ignores its AbortSignal and never settles (a patched or broken
 * one); the body is read up to the request's cap and the rest is cancelled, so an endless or huge
 * answer costs no more than the cap.
 */
import { BROWSER_BUILD } from './build-flags';
import type { FetchLike, HttpExecutor, HttpResponse } from './transport';

export interface FetchExecutorOptions {
  /** Resolves when a request may start; the page waits here while the browser says it is offline. */
  ready?: () => Promise<unknown> | undefined;
  /**
   * Bodies of at most this many characters go with `keepalive`, so they outlive the page (the
   * browser's budget for all keepalive requests together is 64 KB). Unset: no keepalive (servers).
   */
  keepaliveMaxChars?: number;
}

/** Some fetch implementations (node-fetch 2, polyfills, test doubles) have no web stream: their text is cut instead. */
type BodyLike = { getReader?: () => ReadableStreamDefaultReader<Uint8Array> } | null;

/** The first `max` bytes of a body as text; the stream is cancelled past them. */
export async function readCapped(response: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  const body = response.body as BodyLike;
  if (!body?.getReader) {
    const text = await response.text();
    return { text: text.slice(0, max), truncated: text.length > max };
  }
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (let room = max; ; ) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), truncated: false };
    if (value.byteLength > room) {
      reader.cancel().catch(() => {});
      return { text: text + decoder.decode(value.subarray(0, room)), truncated: true };
    }
    room -= value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
}

export function createFetchExecutor(fetchFn: FetchLike, options: FetchExecutorOptions = {}): HttpExecutor {
  const { ready, keepaliveMaxChars } = options;
  return async (request) => {
    await ready?.();
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no response within ${request.timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, request.timeoutMs);
    });
    const { body } = request;
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      body: body as RequestInit['body'],
      signal: controller.signal,
    };
    if (keepaliveMaxChars !== undefined) init.keepalive = (body?.length ?? 0) <= keepaliveMaxChars;
    const exchange = (async (): Promise<HttpResponse> => {
      const response = await fetchFn(request.url, init);
      const { text, truncated } = await readCapped(response, request.maxResponseBytes);
      const { headers } = response;
      const answer: HttpResponse = {
        status: response.status,
        body: text,
        retryAfter: headers.get('retry-after'),
        contentType: headers.get('content-type'),
        truncated,
      };
      // Only the definitions poll (servers) asks conditionally; a page never does.
      if (!BROWSER_BUILD) answer.etag = headers.get('etag');
      return answer;
    })();
    try {
      return await Promise.race([exchange, deadline]);
    } finally {
      clearTimeout(timer);
      exchange.catch(() => {}); // lost the race: its late failure is no one's concern
    }
  };
}
