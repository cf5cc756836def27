/**
 * The dev server's own routes: the page at `/`, and `/_dev/events`, `/_dev/search`, `/_dev/summary`,
 * `/_dev/flag-users`, `/_dev/stream` and `POST /_dev/clear` for the page and for scripts; session
 * replay's `/_dev/recordings` and `/_dev/replay/…` (replay/routes.ts). They send
 * no CORS headers on purpose: other origins must not read what this machine's apps captured.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { writeResponse } from '../http/respond';
import type { RequestTarget } from '../ingest/routes';
import { handleReplayRoute } from '../replay/routes';
import { isAllowedHostHeader } from './host';
import { renderDevPage } from './page';
import type { DevStore } from './store';
import type { EventStream } from './stream';
import type { DevSummary, FlagUser } from './summary';

export interface DevRoutesContext {
  store: DevStore;
  stream: EventStream;
  summary(): DevSummary;
  flagUsers(offset: number, limit: number): { total: number; offset: number; users: FlagUser[] };
  boundHost: string;
}

const MAX_LIMIT = 10_000;
/** Sent by the page with a clear: a header a cross-site form or `no-cors` fetch cannot set. */
export const CLEAR_HEADER = 'x-hogtail-dev-clear';

/** Answers and returns true for the dev server's own paths; false leaves the request to the others. */
export async function handleDevRoute(
  req: IncomingMessage,
  res: ServerResponse,
  target: RequestTarget,
  context: DevRoutesContext,
): Promise<boolean> {
  const { pathname } = target;
  const isPage = pathname === '/' || pathname === '/index.html';
  if (!isPage && !pathname.startsWith('/_dev/') && pathname !== '/favicon.ico') return false;

  if (!isAllowedHostHeader(req.headers.host, context.boundHost)) {
    send(res, 403, 'text/plain; charset=utf-8', 'this dev server only answers requests addressed to localhost');
    return true;
  }
  if (pathname === '/_dev/clear') {
    handleClear(req, res, target, context);
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(res, 405, 'text/plain; charset=utf-8', `${pathname} takes GET`, { Allow: 'GET, HEAD' });
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
  await handleDataRoute(req, res, target, context);
  return true;
}

async function handleDataRoute(req: IncomingMessage, res: ServerResponse, target: RequestTarget, context: DevRoutesContext): Promise<void> {
  const { pathname, query } = target;
  switch (pathname.replace(/\/$/, '')) {
    case '/_dev/events': {
      const limit = clamp(Number(query.get('limit') ?? 100), 1, MAX_LIMIT);
      const after = query.get('after');
      const events = context.store.query({
        limit,
        ...optional('event', query.get('event')),
        ...optional('distinctId', query.get('distinct_id')),
        ...(after === null || !Number.isFinite(Number(after)) ? {} : { after: Number(after) }),
      });
      return sendJson(res, { total: context.store.visibleEvents(), returned: events.length, events });
    }
    case '/_dev/search': {
      const before = Number(query.get('before'));
      const page = await context.store.search({
        term: query.get('q') ?? '',
        limit: clamp(Number(query.get('limit') ?? 100), 1, MAX_LIMIT),
        ...optional('event', query.get('event')),
        ...optional('distinctId', query.get('distinct_id')),
        ...(query.get('before') !== null && Number.isFinite(before) ? { before } : {}),
      });
      return sendJson(res, page);
    }
    case '/_dev/summary':
      return sendJson(res, context.summary());
    case '/_dev/flag-users':
      return sendJson(
        res,
        context.flagUsers(
          clamp(Number(query.get('offset') ?? 0), 0, Number.MAX_SAFE_INTEGER),
          clamp(Number(query.get('limit') ?? 50), 1, 1_000),
        ),
      );
    case '/_dev/stream':
      return context.stream.handle(req, res, query);
    default:
      if (handleReplayRoute(res, pathname.replace(/\/$/, ''), query, context.store)) return;
      return sendJson(
        res,
        {
          error: `nothing at ${pathname}; try /_dev/events, /_dev/search, /_dev/summary, /_dev/flag-users, /_dev/stream or /_dev/recordings`,
        },
        404,
      );
  }
}

/**
 * `POST /_dev/clear[?files=delete]`: hides everything received so far; the day files stay unless
 * asked. A page elsewhere could post here (the Host is right for a plain cross-site request), so it
 * needs a header only a same-origin script can send, and an Origin, when sent, of this server.
 */
function handleClear(req: IncomingMessage, res: ServerResponse, target: RequestTarget, context: DevRoutesContext): void {
  if (req.method !== 'POST') return send(res, 405, 'text/plain; charset=utf-8', '/_dev/clear takes POST', { Allow: 'POST' });
  const origin = req.headers.origin;
  if (req.headers[CLEAR_HEADER] !== '1' || (origin !== undefined && origin !== `http://${req.headers.host ?? ''}`)) {
    return send(res, 403, 'text/plain; charset=utf-8', `a clear needs the ${CLEAR_HEADER}: 1 header and no foreign Origin`);
  }
  req.resume();
  const deleteFiles = target.query.get('files') === 'delete';
  context.store.clear({ deleteFiles });
  sendJson(res, { cleared: true, filesDeleted: deleteFiles });
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
