/**
 * The page's fetch, wrapped while a recording wants request headers or bodies: the request goes
 * out exactly as the page made it (same arguments, same promise, nothing awaited first), and once
 * its answer is in, the record is built on the side: method, status, the headers and bodies the
 * settings ask for (the response's read from a clone, capped), and the browser's timing entry.
 * The SDK's own requests pass straight through. Nothing here may throw into the page's call.
 */
import { deniedHostNote, requestBodyText, responseBodyText, wantsBody } from './body';
import { requestRecords, type Observed } from './request-record';
import { headersObject, wantsHeaders, type NetworkSink } from './sink';
import { findTimingEntry } from './timing-entry';
import { patchMethod } from './patch';

interface Outgoing {
  url: string;
  observed: Observed;
  /** The request's body as recorded (a Request's is read from a clone). */
  body: Promise<string | null | undefined> | string | null | undefined;
}

/** What is known of the request before it leaves; undefined for the SDK's own requests (or a call fetch itself will refuse). */
function outgoing(win: Window, input: RequestInfo | URL, init: RequestInit | undefined, sink: NetworkSink): Outgoing | undefined {
  const isRequest = typeof Request !== 'undefined' && input instanceof Request;
  const url = new URL(isRequest ? input.url : String(input), win.location.href).href;
  if (sink.own(url)) return undefined;
  const { headers: headerRule, body: bodyRule, payloadHostDenyList } = sink.settings;
  const headers = headersObject(new Headers(init?.headers ?? (isRequest ? input.headers : undefined)));
  const observed: Observed = { method: (init?.method ?? (isRequest ? input.method : 'GET')).toUpperCase() };
  if (wantsHeaders(headerRule, 'request')) observed.requestHeaders = headers;
  let body: Outgoing['body'];
  if (wantsBody('request', bodyRule, headers, url)) {
    body =
      deniedHostNote(url, payloadHostDenyList) ??
      (init?.body !== undefined || !isRequest
        ? requestBodyText(init?.body)
        : input
            .clone()
            .text()
            .catch(() => undefined));
  }
  return { url, observed, body };
}

/** Completes the record once the answer (or the failure) is in, and hands it on. */
async function finish(win: Window, sink: NetworkSink, request: Outgoing, start: number, response: Response | undefined) {
  const end = win.performance.now();
  const { observed } = request;
  let responseBody: Promise<string> | string | undefined;
  if (response) {
    observed.status = response.status;
    const headers = headersObject(response.headers);
    if (wantsHeaders(sink.settings.headers, 'response')) observed.responseHeaders = headers;
    // Cloned now, before the page's own handlers (attached after ours) read the body.
    if (wantsBody('response', sink.settings.body, headers, request.url)) {
      responseBody = deniedHostNote(request.url, sink.settings.payloadHostDenyList) ?? responseBodyText(response);
    }
  }
  if (request.body !== undefined) observed.requestBody = await request.body;
  if (responseBody !== undefined) observed.responseBody = await responseBody;
  const entry = await findTimingEntry(win, request.url, 'fetch', start, end);
  sink.record(requestRecords(win, entry, observed, { url: request.url, initiatorType: 'fetch', start, end }));
}

export function wrapFetch(win: Window, sink: NetworkSink): () => void {
  return patchMethod(
    win,
    'fetch',
    (original, active) =>
      function (this: unknown, input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
        let request: Outgoing | undefined;
        try {
          request = active() ? outgoing(win, input, init, sink) : undefined;
        } catch {
          request = undefined; // fetch itself will say what is wrong with the arguments
        }
        const start = win.performance.now();
        const result = original.call(this, input, init);
        if (request) {
          const done = (response?: Response) => finish(win, sink, request, start, response).catch(() => undefined);
          Promise.resolve(result).then(done, () => done());
        }
        return result;
      },
  );
}
