import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Every answer carries CORS headers: a page on another origin posts here, and without them the browser
 * hides the status from the SDK, which then cannot tell a 400 from a network failure.
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

export function sendPreflight(req: IncomingMessage, res: ServerResponse): void {
  sendEmpty(req, res, 204, {
    'Access-Control-Allow-Methods': 'POST, OPTIONS',
    'Access-Control-Allow-Headers': 'content-type, content-encoding',
    'Access-Control-Max-Age': '86400',
  });
}

/** Errors are plain text, as on the real server. Statuses that forbid a body get none. */
export function sendText(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  text: string,
  headers: OutgoingHttpHeaders = {},
): void {
  if (!canHaveBody(status)) return sendEmpty(req, res, status, headers);
  send(req, res, status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers }, text);
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, value: unknown): void {
  send(req, res, status, { 'Content-Type': 'application/json' }, JSON.stringify(value));
}

export function sendEmpty(req: IncomingMessage, res: ServerResponse, status: number, headers: OutgoingHttpHeaders = {}): void {
  send(req, res, status, headers, undefined);
}

function send(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  body: string | undefined,
): void {
  // The socket may already be gone (client gave up, or a harness reset it); there is no one to answer.
  if (res.headersSent || res.destroyed) return;
  const length = body === undefined ? {} : { 'Content-Length': Buffer.byteLength(body) };
  res.writeHead(status, { ...corsHeaders(req), ...length, ...headers });
  res.end(body);
}

function canHaveBody(status: number): boolean {
  return status >= 200 && status !== 204 && status !== 304;
}
