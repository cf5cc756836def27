/**
 * `createApiClient`: the typed client for the environments management API
 * (docs/management-api.md), one namespace per resource.
 */
import { ApiBrowserError } from './errors';
import { isBrowser } from './environment';
import { segment } from './paths';
import { createRequester, type FetchLike } from './request';
import { createExplicitMembersApi, type ExplicitMembersApi } from './resources/explicit-members';
import { createExportsApi, type ExportsApi } from './resources/exports';
import { createGroupsApi, type GroupsApi } from './resources/groups';
import { createQueryApi, type QueryApi } from './resources/query';
import { createSessionRecordingsApi, type SessionRecordingsApi } from './resources/session-recordings';
import { createSessionsApi, type SessionsApi } from './resources/sessions';
import { createSubscriptionsApi, type SubscriptionsApi } from './resources/subscriptions';

export interface ApiClientOptions {
  /**
   * Where the PostHog instance lives, e.g. `https://us.posthog.com`. A path prefix is kept
   * (`https://example.com/posthog` → `https://example.com/posthog/api/…`).
   */
  host: string;
  /** A personal API key (`phx_…`), sent only as `Authorization: Bearer …`. */
  personalApiKey: string;
  /** The project (environment) every call acts in; from `/api/projects/`. */
  projectId: string | number;
  /** The fetch to use. Default: the global `fetch`, looked up at call time. */
  fetch?: FetchLike;
  /** Per attempt: how long to wait for a complete response. Default 30000; 0 turns it off. */
  timeoutMs?: number;
  /** How many times a failed GET (429, 5xx, network error, timeout) is tried again. Default 2. */
  retries?: number;
  /** First backoff delay; it doubles per retry, with jitter. Default 500. */
  retryDelayMs?: number;
  /**
   * The longest we wait before a retry. A `Retry-After` asking for longer fails the call with the
   * server's error instead of hanging the caller. Default 60000.
   */
  maxRetryDelayMs?: number;
  /**
   * Allow creating the client in a web page. Default false, because the personal key would be
   * readable by every visitor; only for trusted internal tools.
   */
  allowBrowser?: boolean;
}

export interface ApiClient {
  explicitMembers: ExplicitMembersApi;
  exports: ExportsApi;
  groups: GroupsApi;
  query: QueryApi;
  sessionRecordings: SessionRecordingsApi;
  sessions: SessionsApi;
  subscriptions: SubscriptionsApi;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 2;
export const DEFAULT_RETRY_DELAY_MS = 500;
export const DEFAULT_MAX_RETRY_DELAY_MS = 60_000;

export function createApiClient(options: ApiClientOptions): ApiClient {
  if (options === null || typeof options !== 'object') {
    throw new TypeError('createApiClient needs an options object: { host, personalApiKey, projectId }');
  }
  // Checked first, so a page never gets as far as holding a working client.
  if (isBrowser() && options.allowBrowser !== true) throw new ApiBrowserError();

  const { origin, basePath } = parseHost(options.host);
  const requester = createRequester({
    origin,
    basePath,
    projectPath: `/api/environments/${segment(options.projectId, 'projectId')}`,
    personalApiKey: checkKey(options.personalApiKey),
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: nonNegative(options.timeoutMs, 'timeoutMs', DEFAULT_TIMEOUT_MS),
    retries: nonNegativeInteger(options.retries, 'retries', DEFAULT_RETRIES),
    retryDelayMs: nonNegative(options.retryDelayMs, 'retryDelayMs', DEFAULT_RETRY_DELAY_MS),
    maxRetryDelayMs: nonNegative(options.maxRetryDelayMs, 'maxRetryDelayMs', DEFAULT_MAX_RETRY_DELAY_MS),
  });

  return {
    explicitMembers: createExplicitMembersApi(requester),
    exports: createExportsApi(requester),
    groups: createGroupsApi(requester),
    query: createQueryApi(requester),
    sessionRecordings: createSessionRecordingsApi(requester),
    sessions: createSessionsApi(requester),
    subscriptions: createSubscriptionsApi(requester),
  };
}

function parseHost(host: unknown): { origin: string; basePath: string } {
  if (typeof host !== 'string' || host.trim() === '') {
    throw new TypeError('host is required, e.g. "https://us.posthog.com"');
  }
  let url: URL;
  try {
    url = new URL(host.trim());
  } catch {
    throw new TypeError(`host must be an absolute http(s) URL such as "https://us.posthog.com", got ${JSON.stringify(host)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`host must use http or https, got ${JSON.stringify(url.protocol)}`);
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new TypeError('host must not carry credentials, a query or a fragment; the key goes in personalApiKey');
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

/**
 * Refused here rather than by fetch: a header-value error from fetch would quote the value, key
 * included. The message never repeats what was passed.
 */
function checkKey(key: unknown): string {
  if (typeof key !== 'string' || key.trim() === '') {
    throw new TypeError('personalApiKey is required: a personal API key (phx_…) from your account settings');
  }
  const trimmed = key.trim();
  if (trimmed.startsWith('phc_')) {
    throw new TypeError(
      'personalApiKey looks like a project API key (phc_…), which only sends events; the management API needs a personal API key (phx_…)',
    );
  }
  if (!/^[\x21-\x7e]+$/.test(trimmed)) {
    throw new TypeError('personalApiKey contains whitespace or characters that cannot be sent in a header');
  }
  return trimmed;
}

function nonNegative(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new TypeError(`${name} must be a number ≥ 0, got ${String(value)}`);
  }
  return value;
}

function nonNegativeInteger(value: unknown, name: string, fallback: number): number {
  const number = nonNegative(value, name, fallback);
  if (!Number.isInteger(number)) throw new TypeError(`${name} must be an integer, got ${number}`);
  return number;
}
