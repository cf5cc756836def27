/**
 * The local-evaluation endpoints server SDKs poll, served from the flags file:
 * `GET /flags/definitions?token=…&send_cohorts` (posthog-node 5) and the older
 * `GET /api/feature_flag/local_evaluation/?token=…&send_cohorts`. As on PostHog they need a personal
 * API key in `Authorization: Bearer` (401 without a known one, 403 without feature_flag:read) and
 * answer `{ flags, group_type_mapping, cohorts }` with an ETag, 304 when `If-None-Match` matches.
 * No CORS headers: personal keys never belong in a browser.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { storedPayload, type FlagDefinitions } from '../../core/flag-engine';
import { isAllowedHostHeader } from '../dev/host';
import { authenticate, hasScope, type KeyScopes } from '../management/auth';

export interface DefinitionsRouteContext {
  definitions(): FlagDefinitions;
  keys: Readonly<Record<string, KeyScopes>>;
  boundHost: string;
}

const PATHS = new Set([
  '/flags/definitions',
  '/flags/definitions/',
  '/api/feature_flag/local_evaluation',
  '/api/feature_flag/local_evaluation/',
]);

/** Answers and returns true for the two definitions paths; false leaves the request to the others. */
export function handleDefinitionsRoute(
  req: IncomingMessage,
  res: ServerResponse,
  target: { pathname: string; query: URLSearchParams },
  context: DefinitionsRouteContext,
): boolean {
  if (!PATHS.has(target.pathname)) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    send(req, res, 405, { detail: `${target.pathname} takes GET` }, { Allow: 'GET, HEAD' });
  } else if (!isAllowedHostHeader(req.headers.host, context.boundHost)) {
    send(req, res, 403, { detail: 'this dev server only answers requests addressed to localhost' });
  } else if (!target.query.get('token')) {
    send(req, res, 400, { type: 'validation_error', detail: 'the token query parameter (the project API key, phc_…) is missing' });
  } else {
    answer(req, res, context);
  }
  return true;
}

function answer(req: IncomingMessage, res: ServerResponse, context: DefinitionsRouteContext): void {
  const auth = authenticate(req.headers.authorization, context.keys);
  if (!auth.ok) {
    send(req, res, 401, {
      type: 'authentication_error',
      code: auth.code,
      detail: `${auth.detail} hogtail dev accepts the personal API keys it was configured with (by default phx_hogtail_dev_personal_key).`,
    });
    return;
  }
  if (!hasScope(auth.scopes, 'feature_flag:read')) {
    send(req, res, 403, {
      type: 'authentication_error',
      code: 'permission_denied',
      detail: 'this personal API key lacks the feature_flag:read scope',
    });
    return;
  }
  const body = JSON.stringify(wireDefinitions(context.definitions()));
  const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { ETag: etag, 'Cache-Control': 'no-cache' });
    res.end();
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'application/json',
    ETag: etag,
    'Cache-Control': 'no-cache',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

/** PostHog's wire form: deleted flags left out, payloads as stored JSON text. */
function wireDefinitions(definitions: FlagDefinitions): Record<string, unknown> {
  const flags = definitions.flags
    .filter((flag) => !flag.deleted)
    .map(({ unusable: _unusable, ...flag }) => ({
      ...flag,
      filters: {
        ...flag.filters,
        payloads: Object.fromEntries(Object.entries(flag.filters.payloads).map(([key, payload]) => [key, storedPayload(payload) ?? null])),
      },
    }));
  return { flags, group_type_mapping: definitions.group_type_mapping, cohorts: definitions.cohorts };
}

function send(req: IncomingMessage, res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const body = JSON.stringify(value);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), ...headers });
  res.end(req.method === 'HEAD' ? undefined : body);
}
