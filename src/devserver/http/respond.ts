/**
 * The one HTTP response writer of the devserver (ingestion answers, the dev page's routes and the
 * management endpoints all end here), plus the CORS-carrying answers of the ingestion paths.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Writes status, headers and body once. A socket that is already gone (the client gave up, or a
 * harness reset it) has no one to answer; statuses that forbid a body and HEAD requests get none.
 */
export function writeResponse(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, body?: string | Uint8Array): void {
  if (res.headersSent || res.destroyed) return;
  const payload = canHaveBody(status) ? body : undefined;
  const length =
    payload === undefined ? {} : { 'Content-Length': typeof payload === 'string' ? Buffer.byteLength(payload) : payload.byteLength };
  res.writeHead(status, { ...length, ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : payload);
}

/**
 * Every ingestion answer carries CORS headers: a page on another origin posts here, and without them
 * the browser hides the status from the SDK, which then cannot tell a 400 from a network failure.
 */
export function corsHeaders(req: IncomingMessage): OutgoingHttpHeaders {
  const origin = req.headers.origin;
  // Retry-After is exposed so a browser SDK on another origin can honour it on a 429 or 503.
  if (origin === undefined) return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'Retry-After' };
  return {
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Credentials': 'true',
    'Access-Control-Expose-Headers': 'Retry-After',
    Vary: 'Origin',
  };
}

/** GET too: a page's SDK reads /api/surveys/ cross-origin, and some runtimes preflight even a plain GET. */
export function sendPreflight(req: IncomingMessage, res: ServerResponse): void {
  sendEmpty(req, res, 204, {
    'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': 'content-type, content-encoding',
    'Access-Control-Max-Age': '86400',
  });
}

/** Errors are plain text, as on the real server. */
export function sendText(req: IncomingMessage, res: ServerResponse, status: number, text: string, headers: OutgoingHttpHeaders = {}): void {
  writeResponse(res, status, { ...corsHeaders(req), 'Content-Type': 'text/plain; charset=utf-8', ...headers }, text);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  writeResponse(res, status, { ...corsHeaders(req), 'Content-Type': 'application/json' }, JSON.stringify(value));
}

export function sendEmpty(req: IncomingMessage, res: ServerResponse, status: number, headers: OutgoingHttpHeaders = {}): void {
  writeResponse(res, status, { ...corsHeaders(req), ...headers });
}

function canHaveBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}
