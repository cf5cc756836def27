/**
 * XMLHttpRequest, wrapped while a recording wants request headers or bodies: open() notes the
 * method and URL, setRequestHeader() the headers, send() the body and the start; when the request
 * ends (loaded, failed, aborted or timed out) the record is built from the status, the response's
 * headers and body as the settings ask, and the browser's timing entry. The SDK's own requests and
 * the page's calls themselves are left as they were: each wrapper calls the original with the
 * same arguments, and nothing of ours may throw into them.
 */
import { deniedHostNote, requestBodyText, wantsBody } from './body';
import { requestRecords, type Observed } from './request-record';
import { wantsHeaders, type NetworkSink } from './sink';
import { findTimingEntry } from './timing-entry';
import { patchMethod } from './patch';

interface Pending {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** The response's headers (`getAllResponseHeaders()` lines) as an object. */
function responseHeaders(xhr: XMLHttpRequest): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of xhr
    .getAllResponseHeaders()
    .trim()
    .split(/[\r\n]+/)) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** The response body as text, for the response types that are text. */
function responseText(xhr: XMLHttpRequest): string | null | undefined {
  const type = xhr.responseType;
  if (type === '' || type === 'text') return xhr.responseText;
  if (type === 'json') return requestBodyText(xhr.response);
  return `[SessionReplay] Cannot read body of type ${type}`;
}

function ended(win: Window, sink: NetworkSink, xhr: XMLHttpRequest, request: Pending, observed: Observed, start: number): void {
  const end = win.performance.now();
  const { settings } = sink;
  observed.status = xhr.status;
  const headers = responseHeaders(xhr);
  if (wantsHeaders(settings.headers, 'response')) observed.responseHeaders = headers;
  if (wantsBody('response', settings.body, headers, request.url)) {
    observed.responseBody = deniedHostNote(request.url, settings.payloadHostDenyList) ?? responseText(xhr);
  }
  void findTimingEntry(win, request.url, 'xmlhttprequest', start, end).then((entry) =>
    sink.record(requestRecords(win, entry, observed, { url: request.url, initiatorType: 'xmlhttprequest', start, end })),
  );
}

/** Starts watching `xhr`'s request as send() hands it `body`. */
function sent(win: Window, sink: NetworkSink, xhr: XMLHttpRequest, request: Pending, body: unknown): void {
  const { settings } = sink;
  const observed: Observed = { method: request.method };
  if (wantsHeaders(settings.headers, 'request')) observed.requestHeaders = request.headers;
  if (wantsBody('request', settings.body, request.headers, request.url)) {
    observed.requestBody = deniedHostNote(request.url, settings.payloadHostDenyList) ?? requestBodyText(body);
  }
  const start = win.performance.now();
  xhr.addEventListener(
    'loadend',
    () => {
      try {
        ended(win, sink, xhr, request, observed, start);
      } catch {
        // A record that cannot be built is left out; the page's request is not ours to disturb.
      }
    },
    { once: true },
  );
}

export function wrapXhr(win: Window & typeof globalThis, sink: NetworkSink): () => void {
  const proto = win.XMLHttpRequest?.prototype;
  if (!proto) return () => undefined;
  const pending = new WeakMap<XMLHttpRequest, Pending>();
  const undo = [
    patchMethod(
      proto,
      'open',
      (original, active) =>
        function (this: XMLHttpRequest, method: string, url: string | URL, ...rest: unknown[]) {
          try {
            const absolute = new URL(String(url), win.location.href).href;
            if (active() && !sink.own(absolute)) pending.set(this, { url: absolute, method: String(method).toUpperCase(), headers: {} });
            else pending.delete(this);
          } catch {
            pending.delete(this); // open() itself will say what is wrong with the URL
          }
          return (original as (...args: unknown[]) => void).call(this, method, url, ...rest);
        } as XMLHttpRequest['open'],
    ),
    patchMethod(
      proto,
      'setRequestHeader',
      (original) =>
        function (this: XMLHttpRequest, name: string, value: string) {
          const request = pending.get(this);
          // The name as the page wrote it (as posthog-js records it); content types are looked up in any case.
          if (request) request.headers[String(name)] = String(value);
          return original.call(this, name, value);
        },
    ),
    patchMethod(
      proto,
      'send',
      (original, active) =>
        function (this: XMLHttpRequest, body?: Document | XMLHttpRequestBodyInit | null) {
          const request = pending.get(this);
          if (request && active()) {
            try {
              sent(win, sink, this, request, body);
            } catch {
              // As above: the request goes out whatever happened to its record.
            }
          }
          return original.call(this, body);
        },
    ),
  ];
  return () => undo.forEach((restore) => restore());
}
