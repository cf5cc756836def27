/**
 * The dev server's own routes: the page at `/`, and `/_dev/events`, `/_dev/summary`, `/_dev/stream`
 * for the page and for scripts. They send no CORS headers on purpose: other origins must not read
 * what this machine's apps captured.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { isAllowedHostHeader } from './host';
import { renderDevPage } from './page';
import type { DevStore } from './store';
import type { EventStream } from './stream';
import type { DevSummary } from './summary';
import { writeResponse } from '../http/respond';
import type { RequestTarget } from '../ingest/routes';

export interface DevRoutesContext {
  store: DevStore;
  stream: EventStream;
  summary(): DevSummary;
  boundHost: string;
}

const MAX_LIMIT = 10_000;

/** Answers and returns true for the dev server's own paths; false leaves the request to the others. */
export function handleDevRoute(req: IncomingMessage, res: ServerResponse, target: RequestTarget, context: DevRoutesContext): boolean {
  const { pathname, query } = target;
  const isPage = pathname === '/' || pathname === '/index.html';
  if (!isPage && !pathname.startsWith('/_dev/') && pathname !== '/favicon.ico') return false;

  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', `${pathname} takes GET`, { Allow: 'GET, HEAD' });
    return true;
  }
  if (!isAllowedHostHeader(req.headers.host, context.boundHost)) {
    send(res, 403, 'text/plain; charset=utf-8', 'this dev server only answers requests addressed to localhost');
    return true;
  }
  if (pathname === '/favicon.ico') {
    send(res, 204, undefined, undefined);
    return true;
  }
  if (isPage) {
    // A fresh nonce per page: only the page's own script and style run, so even markup that slipped
    // into the DOM could not execute an injected handler.
    const nonce = randomBytes(16).toString('base64');
    send(res, 200, 'text/html; charset=utf-8', renderDevPage(nonce), {
      'Content-Security-Policy': `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; connect-src 'self'; img-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
      'X-Frame-Options': 'DENY',
    });
    return true;
  }

  switch (pathname) {
    case '/_dev/events':
    case '/_dev/events/': {
      const limit = clamp(Number(query.get('limit') ?? 100), 1, MAX_LIMIT);
      const after = query.get('after');
      const events = context.store.query({
        limit,
        ...optional('event', query.get('event')),
        ...optional('distinctId', query.get('distinct_id')),
        ...(after === null || !Number.isFinite(Number(after)) ? {} : { after: Number(after) }),
      });
      sendJson(res, { total: context.store.totalEvents(), returned: events.length, events });
      return true;
    }
    case '/_dev/summary':
    case '/_dev/summary/':
      sendJson(res, context.summary());
      return true;
    case '/_dev/stream':
      context.stream.handle(req, res, query);
      return true;
    default:
      sendJson(res, { error: `nothing at ${pathname}; try /_dev/events, /_dev/summary or /_dev/stream` }, 404);
      return true;
  }
}

function optional<K extends string>(key: K, value: string | null): Partial<Record<K, string>> {
  return value === null || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}

function clamp(value: number, min: number, max: number): number {
  return Number.isFinite(value) ? Math.min(max, Math.max(min, Math.floor(value))) : min;
}

function sendJson(res: ServerResponse, value: unknown, status = 200): void {
  send(res, status, 'application/json', JSON.stringify(value));
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string | undefined,
  body: string | undefined,
  headers: Record<string, string> = {},
): void {
  const all: Record<string, string> = { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers };
  if (contentType !== undefined) all['Content-Type'] = contentType;
  writeResponse(res, status, all, body);
}
