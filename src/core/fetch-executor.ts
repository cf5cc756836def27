/**
 * An HttpExecutor on any fetch-compatible function: the edge client's transport, and Node's when
 * the user passes `fetch`. The deadline covers the whole exchange, body included, and holds even
 * against a fetch that ignores its AbortSignal; the body is read up to MAX_RESPONSE_BYTES and the
 * rest is cancelled, so an endless or huge answer costs nothing.
 */
import type { FetchLike } from './server/options';
import { MAX_RESPONSE_BYTES, type HttpExecutor, type HttpResponse } from './transport';

/** The first `max` bytes of a body stream as text; the stream is cancelled past them. */
export async function readCapped(body: ReadableStream<Uint8Array> | null, max: number = MAX_RESPONSE_BYTES): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    total += value.byteLength;
    if (total >= max) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(total, max));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.length - offset);
    bytes.set(part, offset);
    offset += part.length;
  }
  return new TextDecoder().decode(bytes);
}

export function createFetchExecutor(fetchFn: FetchLike): HttpExecutor {
  return async (request) => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new Error(`no response within ${request.timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, request.timeoutMs);
    });
    const exchange = (async (): Promise<HttpResponse> => {
      const body = request.body as RequestInit['body']; // a string or bytes: what every fetch takes
      const response = await fetchFn(request.url, { method: 'POST', headers: request.headers, body, signal: controller.signal });
      const text = await readCapped(response.body);
      return { status: response.status, body: text, retryAfter: response.headers.get('retry-after') };
    })();
    try {
      return await Promise.race([exchange, deadline]);
    } finally {
      clearTimeout(timer);
      exchange.catch(() => {}); // lost the race: its late failure is no one's concern
    }
  };
}
