/**
 * Request and response bodies as text for the recording, when the settings ask for them:
 * - never binary or media (images, video, audio, fonts, octet streams, PDF, zip, wasm) nor a
 *   `blob:` URL's, whatever `recordBody` says: they are large and the recording shows the page;
 * - never from a host on the deny-list (analytics and replay vendors, the project's list): a note;
 * - a response is read from a clone, a chunk at a time, and given up past MAX_BODY_BYTES or after
 *   BODY_READ_MS: the page's own read of its response is never held up or starved;
 * - a request body is read as the page handed it (text, form data, URL parameters, JSON-able
 *   objects); a stream or binary body is named, not read.
 */
import { MAX_BODY_BYTES, tooLargeNote } from './request-mask';
import type { BodyRule, RecordBody } from './settings';

const NEVER_RECORDED_TYPES = [
  'image/',
  'video/',
  'audio/',
  'font/',
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/wasm',
];
/** How long a response body may take to read before the record goes without it. */
export const BODY_READ_MS = 500;

const headerValue = (headers: Record<string, string>, name: string): string | undefined =>
  Object.entries(headers)
    .find(([key]) => key.toLowerCase() === name)?.[1]
    ?.toLowerCase();

/** Whether the settings want this body, given the headers that came with it (its content type). */
export function wantsBody(kind: 'request' | 'response', rule: RecordBody, headers: Record<string, string>, url: string): boolean {
  if (!rule || url.startsWith('blob:')) return false;
  const type = headerValue(headers, 'content-type');
  const typed = (types: readonly string[]) => type !== undefined && types.some((wanted) => type.includes(wanted.toLowerCase()));
  if (typed(NEVER_RECORDED_TYPES)) return false;
  const forKind: BodyRule | undefined =
    typeof rule === 'boolean' || Array.isArray(rule) ? (rule as BodyRule) : (rule as Record<string, BodyRule>)[kind];
  return typeof forKind === 'boolean' ? forKind : Array.isArray(forKind) && typed(forKind);
}

/** The note that stands for a body from a denied host, or undefined when the host is not denied. */
export function deniedHostNote(url: string, denied: readonly string[]): string | undefined {
  let hostname: string;
  try {
    hostname = new URL(url, globalThis.location?.href).hostname;
  } catch {
    return undefined;
  }
  return denied.some((suffix) => hostname.endsWith(suffix)) ? `${hostname} is in deny list` : undefined;
}

/** A body the page handed to fetch() or XMLHttpRequest.send(), as text where it is text. */
export function requestBodyText(body: unknown): string | null | undefined {
  if (body === null || body === undefined) return body;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    const pairs: string[] = [];
    body.forEach((value, key) =>
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(typeof value === 'string' ? value : '[file]')}`),
    );
    return pairs.join('&');
  }
  if (typeof Document !== 'undefined' && body instanceof Document) return body.textContent;
  const kind = Object.prototype.toString.call(body).slice(8, -1);
  if (kind !== 'Object' && kind !== 'Array') return `[SessionReplay] Cannot read body of type ${kind}`;
  try {
    return JSON.stringify(body);
  } catch {
    return '[SessionReplay] Failed to stringify body';
  }
}

/** A response's body from a clone, at most MAX_BODY_BYTES of it and for at most BODY_READ_MS. */
export function responseBodyText(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_BODY_BYTES) return Promise.resolve(tooLargeNote('Response'));
  return new Promise((resolve) => {
    let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
    const finish = (text: string) => {
      clearTimeout(timer);
      reader?.cancel().catch(() => undefined);
      reader = undefined;
      resolve(text);
    };
    const timer = setTimeout(() => finish('[SessionReplay] Timeout while trying to read body'), BODY_READ_MS);
    try {
      const body = response.clone().body;
      if (!body) return finish('');
      reader = body.getReader();
    } catch (error) {
      return finish(`[SessionReplay] Failed to read body: ${String(error)}`);
    }
    const decoder = new TextDecoder();
    let text = '';
    let bytes = 0;
    const pump = (current: ReadableStreamDefaultReader<Uint8Array>): void =>
      void current.read().then(
        ({ done, value }) => {
          if (reader !== current) return; // finished already (timeout)
          if (done) return finish(text + decoder.decode());
          bytes += value.byteLength;
          if (bytes > MAX_BODY_BYTES) return finish(tooLargeNote('Response'));
          text += decoder.decode(value, { stream: true });
          pump(current);
        },
        (error: unknown) => finish(`[SessionReplay] Failed to read body: ${String(error)}`),
      );
    pump(reader);
  });
}
