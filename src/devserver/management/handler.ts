/**
 * The management endpoints as a plain request handler, separate from any listening server, so the
 * standalone test server and the `hogtail dev` collector mount the same code. `handle()` answers
 * false for paths it does not own, letting the host server route them elsewhere.
 *
 * Checks run in PostHog's order: (fault injection, standing in for the proxy in front), then the
 * key (401), the project (404), the route (404/405), the scope (403), the endpoint.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodePathSegment } from '../http/decode-segment';
import { authenticate, DEFAULT_KEYS, hasScope, type KeyScopes } from './auth';
import { createFaultState, type ManagementFaults } from './faults';
import { createSeedFixtures, type ManagementFixtures } from './fixtures';
import { BodyError, errorReply, readJsonBody, writeReply, type Reply } from './http';
import { PagingError } from './paging';
import { ROUTES, type Endpoint, type Method } from './routes';
import { createStore, type GroupsSource, type ManagementStore } from './store';

export interface ManagementHandlerOptions {
  /** The one project this server knows. Default 1. */
  projectId?: string | number;
  /** Personal API keys and their scopes (`'*'` = all). Default: DEV_PERSONAL_API_KEY with every scope. */
  keys?: Readonly<Record<string, KeyScopes>>;
  /** Data to serve. Default: createSeedFixtures(). */
  fixtures?: ManagementFixtures;
  /** Where groups come from. Default: the fixtures' groups. */
  groupsSource?: GroupsSource;
  /**
   * The origin written into `next`/`previous` links. Default: `http://` + the request's Host header.
   * Set it to another host to check that clients do not follow links off their configured host.
   */
  publicUrl?: string;
  /** Groups per cursor page. Default 100, PostHog's. */
  groupPageSize?: number;
  /** How many requests `requests` keeps (oldest dropped), so a long `hogtail dev` session stays bounded. Default 10000. */
  requestLogLimit?: number;
}

/** One request as the server saw it, for tests to assert method, path and auth header. */
export interface RecordedRequest {
  method: string;
  path: string;
  /** The raw query string, with its leading '?', or ''. */
  search: string;
  authorization: string | undefined;
  body: unknown;
}

export interface ManagementHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /** Replaces the fault counters; `setFaults({})` clears them. */
  setFaults(faults: ManagementFaults): void;
  /** Requests handled, oldest first, up to `requestLogLimit`. Clear it with `requests.length = 0`. */
  readonly requests: RecordedRequest[];
  readonly store: ManagementStore;
  readonly projectId: string;
  /** Ends responses held open by the `stall` fault. */
  close(): void;
}

const PREFIX = '/api/environments/';
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);

/** The endpoint a request names below the prefix, or the error reply that says why there is none. */
function resolveEndpoint(url: URL, method: string, scopes: KeyScopes, projectId: string): Reply | { endpoint: Endpoint; params: string[] } {
  const rest = url.pathname.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  const project = decodePathSegment(slash === -1 ? rest : rest.slice(0, slash));
  if (project !== projectId) {
    return errorReply(
      404,
      'invalid_request',
      'not_found',
      `Project ${JSON.stringify(project)} not found; this server serves project ${projectId}.`,
    );
  }
  const below = slash === -1 ? '' : rest.slice(slash + 1);
  const found = findRoute(below);
  if (found === undefined) {
    const hint = findRoute(`${below}/`) === undefined ? '' : ' Paths end with a slash.';
    return errorReply(404, 'invalid_request', 'not_found', `Not found.${hint}`);
  }
  const endpoint = found.route.methods[method as Method];
  if (endpoint === undefined) {
    const allowed = Object.keys(found.route.methods).join(', ');
    return {
      ...errorReply(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`),
      headers: { Allow: allowed },
    };
  }
  if (endpoint.scope !== null && !hasScope(scopes, endpoint.scope)) {
    return errorReply(
      403,
      'authentication_error',
      'permission_denied',
      `This action requires scope '${endpoint.scope}', which the personal API key does not have.`,
    );
  }
  const params = found.params.map(decodePathSegment);
  if (params.some((param) => param === undefined)) return errorReply(404, 'invalid_request', 'not_found', 'Not found.');
  return { endpoint, params: params as string[] };
}

export function createManagementHandler(options: ManagementHandlerOptions = {}): ManagementHandler {
  const projectId = String(options.projectId ?? 1);
  const keys = options.keys ?? DEFAULT_KEYS;
  const store = createStore(options.fixtures ?? createSeedFixtures(), options.groupsSource);
  const faults = createFaultState();
  const requests: RecordedRequest[] = [];
  const stalled = new Set<ServerResponse>();
  const groupPageSize = options.groupPageSize ?? 100;
  const requestLogLimit = options.requestLogLimit ?? 10_000;

  async function respond(req: IncomingMessage, url: URL): Promise<Reply | 'stall'> {
    const method = (req.method ?? 'GET').toUpperCase();
    let body: unknown;
    try {
      body = BODY_METHODS.has(method) ? await readJsonBody(req) : undefined;
    } catch (error) {
      if (error instanceof BodyError) return error.reply;
      throw error;
    }
    requests.push({
      method,
      path: url.pathname,
      search: url.search,
      authorization: req.headers.authorization,
      body,
    });
    if (requests.length > requestLogLimit) requests.splice(0, requests.length - requestLogLimit);

    const faulty = faultReply(faults.take());
    if (faulty !== undefined) return faulty;

    const auth = authenticate(req.headers.authorization, keys);
    if (!auth.ok) return errorReply(401, 'authentication_error', auth.code, auth.detail);

    const resolved = resolveEndpoint(url, method, auth.scopes, projectId);
    if ('status' in resolved) return resolved;
    const { endpoint, params } = resolved;
    try {
      return await endpoint.handle({ params, url, body, store, groupPageSize, now: () => new Date() });
    } catch (error) {
      if (error instanceof PagingError) return pagingReply(error);
      throw error;
    }
  }

  return {
    requests,
    store,
    projectId,
    setFaults: (next) => faults.set(next),
    async handle(req, res) {
      const base = options.publicUrl ?? `http://${req.headers.host ?? '127.0.0.1'}`;
      let url: URL;
      try {
        url = new URL(req.url ?? '/', base);
      } catch {
        return false;
      }
      if (!url.pathname.startsWith(PREFIX)) return false;
      let reply: Reply | 'stall';
      try {
        reply = await respond(req, url);
      } catch (error) {
        reply = errorReply(500, 'server_error', 'error', `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (reply === 'stall') {
        stalled.add(res);
        res.on('close', () => stalled.delete(res));
      } else {
        writeReply(res, reply);
      }
      return true;
    },
    close() {
      for (const res of stalled) res.destroy();
      stalled.clear();
    },
  };
}

/** What a fault the test set up answers instead of the endpoint (none: the endpoint answers). */
function faultReply(fault: ReturnType<ReturnType<typeof createFaultState>['take']>): Reply | 'stall' | undefined {
  if (fault.kind === 'stall') return 'stall';
  if (fault.kind === 'unavailable') {
    return { status: 503, bytes: Buffer.from('Service Unavailable'), contentType: 'text/plain; charset=utf-8' };
  }
  if (fault.kind === 'rate_limit') {
    const reply = errorReply(429, 'throttled_error', 'throttled', `Request was throttled. Expected available in ${fault.retryAfter}.`);
    return { ...reply, headers: { 'Retry-After': fault.retryAfter } };
  }
  return undefined;
}

/** A page request the paging rules refuse: an unknown cursor (404) or a bad parameter (400). */
function pagingReply(error: PagingError): Reply {
  return error.status === 404
    ? errorReply(404, 'invalid_request', 'not_found', error.message)
    : errorReply(400, 'validation_error', 'invalid_input', error.message, error.attr);
}

function findRoute(path: string): { route: (typeof ROUTES)[number]; params: string[] } | undefined {
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (match !== null) return { route, params: match.slice(1).map((param) => param ?? '') };
  }
  return undefined;
}
